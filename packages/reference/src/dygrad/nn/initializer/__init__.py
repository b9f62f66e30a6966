"""paddle.nn.initializer: how parameters get their first values."""

from .assign import Assign
from .constant import Constant
from .dirac import Dirac
from .initializer import Initializer, calculate_gain, set_global_initializer
from .kaiming import KaimingNormal, KaimingUniform
from .normal import Normal, TruncatedNormal
from .orthogonal import Orthogonal
from .uniform import Uniform
from .xavier import XavierNormal, XavierUniform

__all__ = ["Initializer", "Constant", "Normal", "TruncatedNormal", "Uniform", "XavierUniform",
           "XavierNormal", "KaimingUniform", "KaimingNormal", "Orthogonal", "Assign", "Dirac",
           "set_global_initializer", "calculate_gain"]
