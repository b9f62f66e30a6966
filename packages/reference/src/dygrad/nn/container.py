"""Containers: Sequential (layers applied in order), LayerList and LayerDict (sublayers
held in a list or dict), ParameterList and ParameterDict (parameters held likewise).

Whatever a container holds is registered (sublayers under '0', '1', ... or their keys), so
``parameters()``, ``state_dict()``, ``to()`` ... find it. Only Sequential has a forward.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping

from .._core.tensor import Parameter
from .layer import Layer


class Sequential(Layer):
    """Apply the given layers one after the other. ``Sequential(l1, l2)`` names them '0',
    '1'; ``Sequential(('enc', l1), ('dec', l2))`` (or an OrderedDict) names them."""

    def __init__(self, *layers):
        super().__init__()
        if len(layers) == 1 and isinstance(layers[0], OrderedDict):
            layers = tuple(layers[0].items())
        if layers and isinstance(layers[0], (list, tuple)):
            for name, layer in layers:
                self.add_sublayer(name, layer)
        else:
            for i, layer in enumerate(layers):
                self.add_sublayer(str(i), layer)

    def __getitem__(self, index):
        layers = list(self._sub_layers.values())
        if isinstance(index, slice):
            return type(self)(*layers[index])
        if isinstance(index, str):
            return self._sub_layers[index]
        if not -len(layers) <= index < len(layers):
            raise IndexError(f"index {index} is out of range")
        return layers[index]

    def __setitem__(self, name, layer):
        if not isinstance(layer, Layer):
            raise TypeError(f"Sequential: only Layers can be stored, got {type(layer).__name__}")
        setattr(self, str(name), layer)

    def __delitem__(self, name):
        name = str(name)
        if name not in self._sub_layers:
            raise KeyError(f"Sequential has no sublayer named {name!r}")
        del self._sub_layers[name]

    def __len__(self):
        return len(self._sub_layers)

    def forward(self, input):
        for layer in self._sub_layers.values():
            input = layer(input)
        return input


def _abs_index(container, idx, what):
    """``idx`` (negative counts from the end) as a position in ``container``."""
    if not isinstance(idx, int) or isinstance(idx, bool):
        raise TypeError(f"{what} indices must be integers or slices, got {type(idx).__name__}")
    n = len(container)
    if not -n <= idx < n:
        raise IndexError(f"index {idx} is out of range, should be an integer in range "
                         f"[{-n}, {n})")
    return idx + n if idx < 0 else idx


class LayerList(Layer):
    """A list of sublayers, registered under '0', '1', ... (renumbered after a deletion or
    an insertion) so their parameters are found; it has no forward of its own."""

    def __init__(self, sublayers=None):
        super().__init__()
        self.extend(sublayers or ())

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._sub_layers.values())[idx])
        return self._sub_layers[str(_abs_index(self, idx, "LayerList"))]

    def __setitem__(self, idx, sublayer):
        setattr(self, str(_abs_index(self, idx, "LayerList")), sublayer)

    def __delitem__(self, idx):
        layers = list(self._sub_layers.values())
        if isinstance(idx, slice):
            del layers[idx]
        else:
            del layers[_abs_index(self, idx, "LayerList")]
        self._renumber(layers)

    def _renumber(self, layers):
        self._sub_layers.clear()
        for i, layer in enumerate(layers):
            self.add_sublayer(str(i), layer)

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers.values())

    def append(self, sublayer):
        """Add ``sublayer`` at the end; returns self."""
        self.add_sublayer(str(len(self)), sublayer)
        return self

    def insert(self, index, sublayer):
        """Insert ``sublayer`` before position ``index`` (in [-len, len]; negative counts
        from the end, len appends)."""
        n = len(self)
        if not isinstance(index, int) or not -n <= index <= n:
            raise IndexError(f"index should be an integer in range [{-n}, {n}], got {index!r}")
        layers = list(self._sub_layers.values())
        layers.insert(index, sublayer)
        self._renumber(layers)

    def extend(self, sublayers):
        """Append every layer of ``sublayers``; returns self."""
        for layer in sublayers:
            self.append(layer)
        return self


class LayerDict(Layer):
    """An ordered dict of sublayers, registered under their keys; it has no forward."""

    def __init__(self, sublayers=None):
        super().__init__()
        if sublayers is not None:
            self.update(sublayers)

    def __getitem__(self, key):
        return self._sub_layers[key]

    def __setitem__(self, key, sublayer):
        self.add_sublayer(key, sublayer)

    def __delitem__(self, key):
        del self._sub_layers[key]

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers)

    def __contains__(self, key):
        return key in self._sub_layers

    def clear(self):
        """Remove every sublayer."""
        self._sub_layers.clear()

    def pop(self, key):
        """Remove the sublayer under ``key`` and return it."""
        return self._sub_layers.pop(key)

    def keys(self):
        return self._sub_layers.keys()

    def values(self):
        return self._sub_layers.values()

    def items(self):
        return self._sub_layers.items()

    def update(self, sublayers):
        """Add (or replace) sublayers from a mapping (a dict, OrderedDict or LayerDict: in
        its order) or an iterable of (key, layer) pairs."""
        for key, layer in _pairs(sublayers, "sublayers"):
            self.add_sublayer(key, layer)


def _pairs(items, what):
    """The (key, value) pairs of a mapping, or of an iterable of pairs (each checked)."""
    if isinstance(items, (Mapping, LayerDict, ParameterDict)):
        return list(items.items())
    if not isinstance(items, Iterable):
        raise TypeError(f"The type of {what} is not iterable of key/value pairs, the type of "
                        f"{what} is {type(items).__name__}")
    pairs = [tuple(kv) for kv in items]
    for i, kv in enumerate(pairs):
        if len(kv) != 2:
            raise ValueError(f"The length of the {i}'s element in {what} is {len(kv)}, which "
                             f"must be 2.")
    return pairs


def _check_parameter(param, what):
    if not isinstance(param, Parameter):
        raise TypeError(f"{what} holds Parameters (e.g. from create_parameter), got "
                        f"{type(param).__name__}")


class ParameterList(Layer):
    """A list of parameters, registered under '0', '1', ... so optimizers and state dicts
    find them; it has no forward."""

    def __init__(self, parameters=None):
        super().__init__()
        for param in parameters or ():
            self.append(param)

    def __getitem__(self, idx):
        return self._parameters[str(_abs_index(self, idx, "ParameterList"))]

    def __setitem__(self, idx, param):
        """Put ``param`` (a Parameter) in place of the one at ``idx``."""
        _check_parameter(param, "ParameterList")
        self._parameters[str(_abs_index(self, idx, "ParameterList"))] = param

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters.values())

    def append(self, parameter):
        """Add ``parameter`` (a Parameter) at the end; returns self."""
        _check_parameter(parameter, "ParameterList")
        self.add_parameter(str(len(self)), parameter)
        return self


class ParameterDict(Layer):
    """An ordered dict of parameters, registered under their keys; it has no forward."""

    def __init__(self, parameters=None):
        super().__init__()
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key):
        return self._parameters[key]

    def __setitem__(self, key, param):
        _check_parameter(param, "ParameterDict")
        setattr(self, key, param)

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters)

    def items(self):
        return self._parameters.items()

    def update(self, parameters):
        """Add (or replace) parameters from a mapping or an iterable of (key, parameter)
        pairs."""
        for key, param in _pairs(parameters, "parameters"):
            _check_parameter(param, "ParameterDict")
            self.add_parameter(key, param)

__all__ = ["Sequential", "LayerList", "LayerDict", "ParameterList", "ParameterDict"]
