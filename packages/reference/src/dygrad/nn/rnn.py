"""Recurrent layers: SimpleRNN, LSTM, GRU and their cells."""

__all__: list = []
