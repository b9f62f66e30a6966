"""Optimizer update kernels: each writes the new parameter and accumulators into the arrays
it is given (as Paddle's ops alias their outputs to their inputs) and returns them.

Scalars are cast to the parameter's dtype first, so the arithmetic is the parameter's own;
``_f32`` rounds an attribute that Paddle's op keeps as a C++ float.
"""

import numpy as np

from ._registry import kernel


def _f32(value, dtype):
    """An attribute Paddle stores as a float32, in the parameter's dtype."""
    return dtype.type(np.float32(value))


@kernel(name="sgd_")
def sgd_(param, grad, learning_rate):
    """param -= lr * grad"""
    param -= learning_rate.reshape(()) * grad
    return param


@kernel(name="momentum_")
def momentum_(param, grad, learning_rate, velocity, mu=0.9, use_nesterov=False,
              regularization_method="", regularization_coeff=0.0, rescale_grad=1.0):
    """velocity = mu velocity + g; param -= lr velocity (Nesterov: lr (g + mu velocity))"""
    dt, lr = param.dtype, learning_rate.reshape(())
    mu = _f32(mu, dt)
    g = _f32(rescale_grad, dt) * grad
    if regularization_method == "l2_decay":
        g = g + _f32(regularization_coeff, dt) * param
    velocity *= mu
    velocity += g
    param -= (g + velocity * mu) * lr if use_nesterov else lr * velocity
    return param, velocity


def _adam_step(param, grad, lr, moment1, moment2, beta1_pow, beta2_pow, beta1, beta2, epsilon):
    """Adam's moments and parameter step (shared by adam_ and adamw_)."""
    b1p, b2p = beta1_pow.reshape(()), beta2_pow.reshape(())
    moment1 *= beta1
    moment1 += (1 - beta1) * grad
    moment2 *= beta2
    moment2 += (1 - beta2) * grad * grad
    lr_t = lr * np.sqrt(1 - b2p) / (1 - b1p)
    param -= lr_t * (moment1 / (np.sqrt(moment2) + epsilon * np.sqrt(1 - b2p)))
    beta1_pow *= beta1
    beta2_pow *= beta2
    return param, moment1, moment2, beta1_pow, beta2_pow


@kernel(name="adam_")
def adam_(param, grad, learning_rate, moment1, moment2, beta1_pow, beta2_pow, beta1=0.9,
          beta2=0.999, epsilon=1e-8):
    """Adam, the bias corrections folded into the step size"""
    t = param.dtype.type
    return _adam_step(param, grad, learning_rate.reshape(()), moment1, moment2, beta1_pow,
                      beta2_pow, t(beta1), t(beta2), t(epsilon))


@kernel(name="adamw_")
def adamw_(param, grad, learning_rate, moment1, moment2, beta1_pow, beta2_pow, beta1=0.9,
           beta2=0.999, epsilon=1e-8, lr_ratio=1.0, coeff=0.01, with_decay=True):
    """param *= 1 - lr coeff, then Adam (lr = learning_rate * lr_ratio)"""
    dt = param.dtype
    lr = learning_rate.reshape(()) * _f32(lr_ratio, dt)
    if with_decay:
        param -= lr * _f32(coeff, dt) * param
    return _adam_step(param, grad, lr, moment1, moment2, beta1_pow, beta2_pow,
                      dt.type(beta1), dt.type(beta2), dt.type(epsilon))


@kernel(name="adamax_")
def adamax_(param, grad, learning_rate, moment, inf_norm, beta1_pow, beta1=0.9, beta2=0.999,
            epsilon=1e-8):
    """moment, inf_norm = max(beta2 inf_norm + eps, |g|); param -= lr/(1 - beta1^t) m/u"""
    dt = param.dtype
    b1, b2, eps = _f32(beta1, dt), _f32(beta2, dt), _f32(epsilon, dt)
    moment *= b1
    moment += (1 - b1) * grad
    np.maximum(b2 * inf_norm + eps, np.abs(grad), out=inf_norm)
    param -= learning_rate.reshape(()) / (1 - beta1_pow.reshape(())) * (moment / inf_norm)
    beta1_pow *= dt.type(beta1)  # Paddle's separate scale op: the exact beta1
    return param, moment, inf_norm, beta1_pow


@kernel(name="adagrad_")
def adagrad_(param, grad, learning_rate, moment, epsilon=1e-6):
    """moment += g^2; param -= lr g / (sqrt(moment) + eps)"""
    moment += grad * grad
    param -= learning_rate.reshape(()) * grad / (np.sqrt(moment) + _f32(epsilon, param.dtype))
    return param, moment


@kernel(name="adadelta_")
def adadelta_(param, grad, learning_rate, avg_squared_grad, avg_squared_update, rho=0.95,
              epsilon=1e-6):
    """Adadelta: the step is the ratio of the running RMS of updates and of gradients"""
    rho, eps = _f32(rho, param.dtype), _f32(epsilon, param.dtype)
    avg_squared_grad *= rho
    avg_squared_grad += (1 - rho) * grad * grad
    update = -np.sqrt((avg_squared_update + eps) / (avg_squared_grad + eps)) * grad
    avg_squared_update *= rho
    avg_squared_update += (1 - rho) * update * update
    param += learning_rate.reshape(()) * update
    return param, avg_squared_grad, avg_squared_update


@kernel(name="rmsprop_")
def rmsprop_(param, grad, learning_rate, mean_square, mean_grad, moment, rho=0.95,
             epsilon=1e-6, momentum=0.0, centered=False):
    """moment = momentum moment + lr g / sqrt(E[g^2] (- E[g]^2 if centered) + eps)"""
    dt = param.dtype
    rho, eps, mom = _f32(rho, dt), _f32(epsilon, dt), _f32(momentum, dt)
    mean_square *= rho
    mean_square += (1 - rho) * grad * grad
    if centered:
        mean_grad *= rho
        mean_grad += (1 - rho) * grad
        denom = np.sqrt(mean_square - mean_grad * mean_grad + eps)
    else:
        denom = np.sqrt(mean_square + eps)
    moment *= mom
    moment += learning_rate.reshape(()) * grad / denom
    param -= moment
    return param, mean_square, mean_grad, moment


@kernel(name="lamb_")
def lamb_(param, grad, learning_rate, moment1, moment2, beta1_pow, beta2_pow,
          weight_decay=0.01, beta1=0.9, beta2=0.999, epsilon=1e-6, always_adapt=False):
    """Adam's direction plus weight decay, scaled by the trust ratio ||param|| / ||r||"""
    dt = param.dtype
    b1, b2, eps, wd = (_f32(v, dt) for v in (beta1, beta2, epsilon, weight_decay))
    moment1 *= b1
    moment1 += (1 - b1) * grad
    moment2 *= b2
    moment2 += (1 - b2) * grad * grad
    m1_hat = moment1 / (1 - beta1_pow.reshape(()))
    m2_hat = moment2 / (1 - beta2_pow.reshape(()))
    r = m1_hat / (np.sqrt(m2_hat) + eps) + wd * param
    ratio = dt.type(1)
    if weight_decay != 0 or always_adapt:
        p_norm, r_norm = np.sqrt(np.sum(param * param)), np.sqrt(np.sum(r * r))
        if p_norm > 0 and r_norm > 0:
            ratio = p_norm / r_norm
    param -= learning_rate.reshape(()) * ratio * r
    beta1_pow *= b1
    beta2_pow *= b2
    return param, moment1, moment2, beta1_pow, beta2_pow
