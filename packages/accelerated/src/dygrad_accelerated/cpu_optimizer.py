"""CPU kernels of the optimizer family: thin glue around ``_optimizer.pyx``.

The optimizers' update rules (all but lamb_, whose norms a fused loop cannot vectorise: the
reference kernel is faster on large parameters), one fused pass per parameter,
written into the arrays given and returning them, as the reference kernels do. The compiled
loops take writable C-contiguous float32/float64 arrays of one dtype (every parameter and
accumulator the optimizers create); they decline anything else (float16, a non-contiguous
view, mismatched inputs), which then goes to the reference kernel, the definition.
"""

from __future__ import annotations

from dygrad.kernels import optimizer as reference

from . import _optimizer


def sgd_(param, grad, learning_rate):
    """param -= lr * grad"""
    if _optimizer.sgd((param, grad, learning_rate)):
        return param
    return reference.sgd_(param, grad, learning_rate)


def momentum_(param, grad, learning_rate, velocity, mu=0.9, use_nesterov=False,
              regularization_method="", regularization_coeff=0.0, rescale_grad=1.0):
    """velocity = mu velocity + g; param -= lr velocity (Nesterov: lr (g + mu velocity))"""
    if _optimizer.momentum((param, grad, velocity, learning_rate), mu, use_nesterov,
                           regularization_method == "l2_decay", regularization_coeff,
                           rescale_grad):
        return param, velocity
    return reference.momentum_(param, grad, learning_rate, velocity, mu, use_nesterov,
                               regularization_method, regularization_coeff, rescale_grad)


def adam_(param, grad, learning_rate, moment1, moment2, beta1_pow, beta2_pow, beta1=0.9,
          beta2=0.999, epsilon=1e-8):
    """Adam, the bias corrections folded into the step size"""
    if _optimizer.adam((param, grad, moment1, moment2, learning_rate, beta1_pow, beta2_pow),
                       beta1, beta2, epsilon, 1.0, 0.0, False):
        return param, moment1, moment2, beta1_pow, beta2_pow
    return reference.adam_(param, grad, learning_rate, moment1, moment2, beta1_pow, beta2_pow,
                           beta1, beta2, epsilon)


def adamw_(param, grad, learning_rate, moment1, moment2, beta1_pow, beta2_pow, beta1=0.9,
           beta2=0.999, epsilon=1e-8, lr_ratio=1.0, coeff=0.01, with_decay=True):
    """param *= 1 - lr coeff, then Adam (lr = learning_rate * lr_ratio)"""
    if _optimizer.adam((param, grad, moment1, moment2, learning_rate, beta1_pow, beta2_pow),
                       beta1, beta2, epsilon, lr_ratio, coeff, with_decay):
        return param, moment1, moment2, beta1_pow, beta2_pow
    return reference.adamw_(param, grad, learning_rate, moment1, moment2, beta1_pow,
                            beta2_pow, beta1, beta2, epsilon, lr_ratio, coeff, with_decay)


def rmsprop_(param, grad, learning_rate, mean_square, mean_grad, moment, rho=0.95,
             epsilon=1e-6, momentum=0.0, centered=False):
    """moment = momentum moment + lr g / sqrt(E[g^2] (- E[g]^2 if centered) + eps)"""
    if _optimizer.rmsprop((param, grad, mean_square, mean_grad, moment, learning_rate), rho,
                          epsilon, momentum, centered):
        return param, mean_square, mean_grad, moment
    return reference.rmsprop_(param, grad, learning_rate, mean_square, mean_grad, moment, rho,
                              epsilon, momentum, centered)


def adagrad_(param, grad, learning_rate, moment, epsilon=1e-6):
    """moment += g^2; param -= lr g / (sqrt(moment) + eps)"""
    if _optimizer.adagrad((param, grad, moment, learning_rate), epsilon):
        return param, moment
    return reference.adagrad_(param, grad, learning_rate, moment, epsilon)


def adadelta_(param, grad, learning_rate, avg_squared_grad, avg_squared_update, rho=0.95,
              epsilon=1e-6):
    """Adadelta: the step is the ratio of the running RMS of updates and of gradients"""
    if _optimizer.adadelta((param, grad, avg_squared_grad, avg_squared_update, learning_rate),
                           rho, epsilon):
        return param, avg_squared_grad, avg_squared_update
    return reference.adadelta_(param, grad, learning_rate, avg_squared_grad,
                               avg_squared_update, rho, epsilon)


def adamax_(param, grad, learning_rate, moment, inf_norm, beta1_pow, beta1=0.9, beta2=0.999,
            epsilon=1e-8):
    """moment, inf_norm = max(beta2 inf_norm + eps, |g|); param -= lr/(1 - beta1^t) m/u"""
    if _optimizer.adamax((param, grad, moment, inf_norm, learning_rate, beta1_pow), beta1,
                         beta2, epsilon):
        return param, moment, inf_norm, beta1_pow
    return reference.adamax_(param, grad, learning_rate, moment, inf_norm, beta1_pow, beta1,
                             beta2, epsilon)


KERNELS = {"sgd_": sgd_, "momentum_": momentum_, "adam_": adam_, "adamw_": adamw_,
           "rmsprop_": rmsprop_, "adagrad_": adagrad_, "adadelta_": adadelta_,
           "adamax_": adamax_}
