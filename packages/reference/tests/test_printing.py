"""Tensor printing: the exact strings PaddlePaddle 3.3.1 prints for the same tensors.

Every expected string below was captured from Paddle itself (``print(t)`` for the same
code with ``import paddle``); dygrad must print it character for character.
"""

import numpy as np
import pytest

import dygrad as paddle
from dygrad._core.printing import format_data

# paddle.randn([4, 2]) after paddle.seed(2022), the 4x2 float32 of the seed tutorial
SEED_RANDN_4X2 = [[1.0625473260879517, 2.4045960903167725], [1.7710230350494385, 1.0175232887268066],
                  [0.21056118607521057, 0.14212146401405334],
                  [-2.033914566040039, 0.044983696192502975]]

CASES = [
    ('seed_randn_4x2', "paddle.to_tensor(SEED_RANDN_4X2, dtype='float32')",
     'Tensor(shape=[4, 2], dtype=float32, place=Place(cpu), stop_gradient=True,\n'
     '       [[ 1.06254733,  2.40459609],\n'
     '        [ 1.77102304,  1.01752329],\n'
     '        [ 0.21056119,  0.14212146],\n'
     '        [-2.03391457,  0.04498370]])'),
    ('arange_float32', "paddle.arange(1, 3, dtype='float32')",
     'Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,\n'
     '       [1., 2.])'),
    ('int64_vector', 'paddle.to_tensor([1, -2, 30, 400])',
     'Tensor(shape=[4], dtype=int64, place=Place(cpu), stop_gradient=True,\n'
     '       [ 1 , -2 ,  30, 400])'),
    ('int64_matrix', 'paddle.to_tensor([[3, -15], [0, 7]])',
     'Tensor(shape=[2, 2], dtype=int64, place=Place(cpu), stop_gradient=True,\n'
     '       [[ 3 , -15],\n'
     '        [ 0 ,  7 ]])'),
    ('bool_vector', 'paddle.to_tensor([True, False, True])',
     'Tensor(shape=[3], dtype=bool, place=Place(cpu), stop_gradient=True,\n'
     '       [True , False, True ])'),
    ('bool_0d', 'paddle.to_tensor(False)',
     'Tensor(shape=[], dtype=bool, place=Place(cpu), stop_gradient=True,\n'
     '       False)'),
    ('float_0d', 'paddle.to_tensor(3.5)',
     'Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,\n'
     '       3.50000000)'),
    ('float_0d_integral', 'paddle.to_tensor(2.0)',
     'Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,\n'
     '       2.)'),
    ('float_0d_negative', 'paddle.to_tensor(-7.25)',
     'Tensor(shape=[], dtype=float32, place=Place(cpu), stop_gradient=True,\n'
     '       -7.25000000)'),
    ('int_0d', 'paddle.to_tensor(7)',
     'Tensor(shape=[], dtype=int64, place=Place(cpu), stop_gradient=True,\n'
     '       7)'),
    ('float64_3d', "paddle.to_tensor(np.arange(24, dtype='float64').reshape(2, 3, 4) / 7)",
     'Tensor(shape=[2, 3, 4], dtype=float64, place=Place(cpu), stop_gradient=True,\n'
     '       [[[0.        , 0.14285714, 0.28571429, 0.42857143],\n'
     '         [0.57142857, 0.71428571, 0.85714286, 1.        ],\n'
     '         [1.14285714, 1.28571429, 1.42857143, 1.57142857]],\n'
     '\n'
     '        [[1.71428571, 1.85714286, 2.        , 2.14285714],\n'
     '         [2.28571429, 2.42857143, 2.57142857, 2.71428571],\n'
     '         [2.85714286, 3.        , 3.14285714, 3.28571429]]])'),
    ('float32_4d', 'paddle.ones([2, 2, 2, 2])',
     'Tensor(shape=[2, 2, 2, 2], dtype=float32, place=Place(cpu), stop_gradient=True,\n'
     '       [[[[1., 1.],\n'
     '          [1., 1.]],\n'
     '\n'
     '         [[1., 1.],\n'
     '          [1., 1.]]],\n'
     '\n'
     '\n'
     '        [[[1., 1.],\n'
     '          [1., 1.]],\n'
     '\n'
     '         [[1., 1.],\n'
     '          [1., 1.]]]])'),
    ('size0_rows', 'paddle.zeros([0, 3])',
     'Tensor(shape=[0, 3], dtype=float32, place=Place(cpu), stop_gradient=True,\n'
     '       [])'),
    ('size0_cols', 'paddle.zeros([2, 0])',
     'Tensor(shape=[2, 0], dtype=float32, place=Place(cpu), stop_gradient=True,\n'
     '       [[],\n'
     '        []])'),
    ('size0_3d', "paddle.zeros([3, 0, 2], dtype='int64')",
     'Tensor(shape=[3, 0, 2], dtype=int64, place=Place(cpu), stop_gradient=True,\n'
     '       [[],\n'
     '\n'
     '        [],\n'
     '\n'
     '        []])'),
    ('summarized_2d', "paddle.to_tensor(np.arange(2000, dtype='float32').reshape(40, 50))",
     'Tensor(shape=[40, 50], dtype=float32, place=Place(cpu), stop_gradient=True,\n'
     '       [[0.   , 1.   , 2.   , ..., 47.  , 48.  , 49.  ],\n'
     '        [50.  , 51.  , 52.  , ..., 97.  , 98.  , 99.  ],\n'
     '        [100. , 101. , 102. , ..., 147. , 148. , 149. ],\n'
     '        ...,\n'
     '        [1850., 1851., 1852., ..., 1897., 1898., 1899.],\n'
     '        [1900., 1901., 1902., ..., 1947., 1948., 1949.],\n'
     '        [1950., 1951., 1952., ..., 1997., 1998., 1999.]])'),
    ('summarized_1d', "paddle.to_tensor(np.arange(1001, dtype='float64') - 500.5)",
     'Tensor(shape=[1001], dtype=float64, place=Place(cpu), stop_gradient=True,\n'
     '       [-500.50000000, -499.50000000, -498.50000000, ...,\n'
     '         497.50000000,  498.50000000,  499.50000000])'),
    ('summarized_3d', "paddle.to_tensor(np.arange(1331, dtype='int64').reshape(11, 11, 11))",
     'Tensor(shape=[11, 11, 11], dtype=int64, place=Place(cpu), stop_gradient=True,\n'
     '       [[[0   , 1   , 2   , ..., 8   , 9   , 10  ],\n'
     '         [11  , 12  , 13  , ..., 19  , 20  , 21  ],\n'
     '         [22  , 23  , 24  , ..., 30  , 31  , 32  ],\n'
     '         ...,\n'
     '         [88  , 89  , 90  , ..., 96  , 97  , 98  ],\n'
     '         [99  , 100 , 101 , ..., 107 , 108 , 109 ],\n'
     '         [110 , 111 , 112 , ..., 118 , 119 , 120 ]],\n'
     '\n'
     '        [[121 , 122 , 123 , ..., 129 , 130 , 131 ],\n'
     '         [132 , 133 , 134 , ..., 140 , 141 , 142 ],\n'
     '         [143 , 144 , 145 , ..., 151 , 152 , 153 ],\n'
     '         ...,\n'
     '         [209 , 210 , 211 , ..., 217 , 218 , 219 ],\n'
     '         [220 , 221 , 222 , ..., 228 , 229 , 230 ],\n'
     '         [231 , 232 , 233 , ..., 239 , 240 , 241 ]],\n'
     '\n'
     '        [[242 , 243 , 244 , ..., 250 , 251 , 252 ],\n'
     '         [253 , 254 , 255 , ..., 261 , 262 , 263 ],\n'
     '         [264 , 265 , 266 , ..., 272 , 273 , 274 ],\n'
     '         ...,\n'
     '         [330 , 331 , 332 , ..., 338 , 339 , 340 ],\n'
     '         [341 , 342 , 343 , ..., 349 , 350 , 351 ],\n'
     '         [352 , 353 , 354 , ..., 360 , 361 , 362 ]],\n'
     '\n'
     '        ...,\n'
     '\n'
     '        [[968 , 969 , 970 , ..., 976 , 977 , 978 ],\n'
     '         [979 , 980 , 981 , ..., 987 , 988 , 989 ],\n'
     '         [990 , 991 , 992 , ..., 998 , 999 , 1000],\n'
     '         ...,\n'
     '         [1056, 1057, 1058, ..., 1064, 1065, 1066],\n'
     '         [1067, 1068, 1069, ..., 1075, 1076, 1077],\n'
     '         [1078, 1079, 1080, ..., 1086, 1087, 1088]],\n'
     '\n'
     '        [[1089, 1090, 1091, ..., 1097, 1098, 1099],\n'
     '         [1100, 1101, 1102, ..., 1108, 1109, 1110],\n'
     '         [1111, 1112, 1113, ..., 1119, 1120, 1121],\n'
     '         ...,\n'
     '         [1177, 1178, 1179, ..., 1185, 1186, 1187],\n'
     '         [1188, 1189, 1190, ..., 1196, 1197, 1198],\n'
     '         [1199, 1200, 1201, ..., 1207, 1208, 1209]],\n'
     '\n'
     '        [[1210, 1211, 1212, ..., 1218, 1219, 1220],\n'
     '         [1221, 1222, 1223, ..., 1229, 1230, 1231],\n'
     '         [1232, 1233, 1234, ..., 1240, 1241, 1242],\n'
     '         ...,\n'
     '         [1298, 1299, 1300, ..., 1306, 1307, 1308],\n'
     '         [1309, 1310, 1311, ..., 1317, 1318, 1319],\n'
     '         [1320, 1321, 1322, ..., 1328, 1329, 1330]]])'),
    ('large_and_small', 'paddle.to_tensor([1e10, 1e-10, 1.0])',
     'Tensor(shape=[3], dtype=float32, place=Place(cpu), stop_gradient=True,\n'
     '       [10000000000., 0.00000000  , 1.          ])'),
    ('large_value', 'paddle.to_tensor([123456789.123, 0.5])',
     'Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,\n'
     '       [123456792., 0.50000000])'),
    ('nan_inf', "paddle.to_tensor([float('nan'), float('inf'), -float('inf'), 1.5])",
     'Tensor(shape=[4], dtype=float32, place=Place(cpu), stop_gradient=True,\n'
     '       [ nan      ,  inf.     , -inf.     , 1.50000000])'),
    ('float16', "paddle.to_tensor([1.1, 2.2, -3.3], dtype='float16')",
     'Tensor(shape=[3], dtype=float16, place=Place(cpu), stop_gradient=True,\n'
     '       [ 1.09960938,  2.19921875, -3.30078125])'),
    ('stop_gradient_false', 'paddle.to_tensor([1., 2.], stop_gradient=False)',
     'Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=False,\n'
     '       [1., 2.])'),
    ('wrapped_rows', "paddle.to_tensor(np.arange(30, dtype='float32') / 3)",
     'Tensor(shape=[30], dtype=float32, place=Place(cpu), stop_gradient=True,\n'
     '       [0.        , 0.33333334, 0.66666669, 1.        , 1.33333337, 1.66666663,\n'
     '        2.        , 2.33333325, 2.66666675, 3.        , 3.33333325, 3.66666675,\n'
     '        4.        , 4.33333349, 4.66666651, 5.        , 5.33333349, 5.66666651,\n'
     '        6.        , 6.33333349, 6.66666651, 7.        , 7.33333349, 7.66666651,\n'
     '        8.        , 8.33333302, 8.66666698, 9.        , 9.33333302, 9.66666698])'),
    ('wrapped_signed', "paddle.to_tensor(np.arange(-20, 20, dtype='float64') / 7)",
     'Tensor(shape=[40], dtype=float64, place=Place(cpu), stop_gradient=True,\n'
     '       [-2.85714286, -2.71428571, -2.57142857, -2.42857143, -2.28571429,\n'
     '        -2.14285714, -2.        , -1.85714286, -1.71428571, -1.57142857,\n'
     '        -1.42857143, -1.28571429, -1.14285714, -1.        , -0.85714286,\n'
     '        -0.71428571, -0.57142857, -0.42857143, -0.28571429, -0.14285714,\n'
     '         0.        ,  0.14285714,  0.28571429,  0.42857143,  0.57142857,\n'
     '         0.71428571,  0.85714286,  1.        ,  1.14285714,  1.28571429,\n'
     '         1.42857143,  1.57142857,  1.71428571,  1.85714286,  2.        ,\n'
     '         2.14285714,  2.28571429,  2.42857143,  2.57142857,  2.71428571])'),
    ('width_from_edge_items', 'paddle.to_tensor([1., 2., 3., -4.5, 5., 6., 7.])',
     'Tensor(shape=[7], dtype=float32, place=Place(cpu), stop_gradient=True,\n'
     '       [1., 2., 3., -4.50000000, 5., 6., 7.])'),
    ('uint8', "paddle.to_tensor(np.array([1, 2, 255], dtype='uint8'))",
     'Tensor(shape=[3], dtype=uint8, place=Place(cpu), stop_gradient=True,\n'
     '       [1  , 2  , 255])'),
    ('complex', "paddle.to_tensor(np.array([[-1+2j, 3-4j], [0.5j, 2]], dtype='complex64'))",
     'Tensor(shape=[2, 2], dtype=complex64, place=Place(cpu), stop_gradient=True,\n'
     '       [[(-1.00000000+2.00000000j),  (3.00000000-4.00000000j)],\n'
     '        [ (0.00000000+0.50000000j),  (2.00000000+0.00000000j)]])'),
]

OPTION_CASES = [
    ('sci_mode', {'sci_mode': True}, 'paddle.to_tensor([[1.5, -200000.], [0., 3e-9]])',
     'Tensor(shape=[2, 2], dtype=float32, place=Place(cpu), stop_gradient=True,\n'
     '       [[ 1.50000000e+00, -2.00000000e+05],\n'
     '        [ 0.00000000e+00,  3.00000003e-09]])'),
    ('precision_3', {'precision': 3}, 'paddle.to_tensor([[1.23456, -2.5], [3., 0.001]])',
     'Tensor(shape=[2, 2], dtype=float32, place=Place(cpu), stop_gradient=True,\n'
     '       [[ 1.235, -2.500],\n'
     '        [ 3.   ,  0.001]])'),
    ('threshold_edgeitems', {'threshold': 10, 'edgeitems': 2}, 'paddle.arange(12)',
     'Tensor(shape=[12], dtype=int64, place=Place(cpu), stop_gradient=True,\n'
     '       [0 , 1 , ..., 10, 11])'),
    ('linewidth_40', {'linewidth': 40},
     "paddle.to_tensor(np.arange(24, dtype='float32').reshape(2, 3, 4) / 3)",
     'Tensor(shape=[2, 3, 4], dtype=float32, place=Place(cpu), stop_gradient=True,\n'
     '       [[[0.        , 0.33333334,\n'
     '          0.66666669, 1.        ],\n'
     '         [1.33333337, 1.66666663,\n'
     '          2.        , 2.33333325],\n'
     '         [2.66666675, 3.        ,\n'
     '          3.33333325, 3.66666675]],\n'
     '\n'
     '        [[4.        , 4.33333349,\n'
     '          4.66666651, 5.        ],\n'
     '         [5.33333349, 5.66666651,\n'
     '          6.        , 6.33333349],\n'
     '         [6.66666651, 7.        ,\n'
     '          7.33333349, 7.66666651]]])'),
]


DEFAULTS = dict(precision=8, threshold=1000, edgeitems=3, sci_mode=False, linewidth=80)


@pytest.fixture(autouse=True)
def _default_options():
    paddle.set_printoptions(**DEFAULTS)
    yield
    paddle.set_printoptions(**DEFAULTS)


@pytest.mark.parametrize("name,code,expected", CASES, ids=[c[0] for c in CASES])
def test_matches_paddle(name, code, expected):
    t = eval(code)
    assert str(t) == expected
    assert repr(t) == expected


@pytest.mark.parametrize("name,options,code,expected", OPTION_CASES,
                         ids=[c[0] for c in OPTION_CASES])
def test_set_printoptions_matches_paddle(name, options, code, expected):
    paddle.set_printoptions(**options)
    assert str(eval(code)) == expected


def test_set_printoptions_keeps_unset_options():
    paddle.set_printoptions(precision=2)
    paddle.set_printoptions(linewidth=100)
    assert str(paddle.to_tensor([0.5, 1.25])).endswith("[0.50, 1.25])")


def test_set_printoptions_rejects_wrong_types_and_changes_nothing():
    with pytest.raises(TypeError, match="precision"):
        paddle.set_printoptions(precision=2.5)
    with pytest.raises(TypeError, match="sci_mode"):
        paddle.set_printoptions(sci_mode=1)
    with pytest.raises(TypeError, match="threshold"):
        paddle.set_printoptions(edgeitems=2, threshold="10")
    assert str(paddle.to_tensor([0.5])).endswith("[0.50000000])")
    assert str(paddle.arange(12)).endswith("[0 , 1 , 2 , 3 , 4 , 5 , 6 , 7 , 8 , 9 , 10, 11])")


def test_parameter_prints_with_its_own_first_line():
    p = paddle.Parameter(np.zeros((1,), np.float32))
    assert str(p) == ("Parameter containing:\n"
                      "Tensor(shape=[1], dtype=float32, place=Place(cpu), stop_gradient=False,\n"
                      "       [0.])")


def test_format_data_indent():
    """Continuation lines start one column right of the indent (the opening bracket)."""
    assert format_data(np.eye(2, dtype=np.int64), 0) == "[[1, 0],\n [0, 1]]"
    assert format_data(np.eye(2, dtype=np.int64), 4) == "[[1, 0],\n     [0, 1]]"


def test_summary_only_above_threshold():
    assert "..." not in str(paddle.zeros([1000]))
    assert "..." in str(paddle.zeros([1001]))
    assert "..." not in str(paddle.zeros([4, 250]))
