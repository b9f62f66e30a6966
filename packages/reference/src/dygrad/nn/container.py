"""Containers: Sequential (layers applied in order) and LayerList (a list of sublayers)."""

from __future__ import annotations

from collections import OrderedDict

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


class LayerList(Layer):
    """A list of sublayers, registered under '0', '1', ... so their parameters are found;
    it has no forward of its own."""

    def __init__(self, sublayers=None):
        super().__init__()
        for layer in sublayers or ():
            self.append(layer)

    def _abs_index(self, idx):
        if not isinstance(idx, int) or isinstance(idx, bool):
            raise TypeError(f"LayerList indices must be integers or slices, got "
                            f"{type(idx).__name__}")
        if not -len(self) <= idx < len(self):
            raise IndexError(f"index {idx} is out of range, should be an integer in range "
                             f"[{-len(self)}, {len(self)})")
        return idx + len(self) if idx < 0 else idx

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._sub_layers.values())[idx])
        return self._sub_layers[str(self._abs_index(idx))]

    def __setitem__(self, idx, sublayer):
        setattr(self, str(self._abs_index(idx)), sublayer)

    def __delitem__(self, idx):
        layers = list(self._sub_layers.values())
        if isinstance(idx, slice):
            del layers[idx]
        else:
            del layers[self._abs_index(idx)]
        self._sub_layers.clear()  # renumber from 0
        for i, layer in enumerate(layers):
            self._sub_layers[str(i)] = layer

    def __len__(self):
        return len(self._sub_layers)

    def __iter__(self):
        return iter(self._sub_layers.values())

    def append(self, sublayer):
        """Add ``sublayer`` at the end; returns self."""
        self.add_sublayer(str(len(self)), sublayer)
        return self

    def insert(self, index, sublayer):
        """Insert ``sublayer`` before position ``index``."""
        layers = list(self._sub_layers.values())
        layers.insert(index, sublayer)
        self._sub_layers.clear()
        for i, layer in enumerate(layers):
            self.add_sublayer(str(i), layer)

    def extend(self, sublayers):
        """Append every layer of ``sublayers``; returns self."""
        for layer in sublayers:
            self.append(layer)
        return self

__all__ = ["Sequential", "LayerList"]
