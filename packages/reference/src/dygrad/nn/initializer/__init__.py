"""paddle.nn.initializer: how parameters get their first values."""

from .constant import Constant
from .initializer import Initializer, calculate_gain
from .kaiming import KaimingNormal, KaimingUniform
from .normal import Normal
from .uniform import Uniform
from .xavier import XavierNormal, XavierUniform

__all__ = ["Initializer", "Constant", "Normal", "Uniform", "XavierUniform", "XavierNormal",
           "KaimingUniform", "KaimingNormal", "calculate_gain"]
