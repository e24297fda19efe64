// feed_forward.cpp — ReLU and the position-wise feed-forward network, forward and backward.
#include "model/transformer/feed_forward.h"

#include <algorithm>

#include "model/multi_head/linear.h"

Matrix relu(const Matrix& x) {
    Matrix y = x;
    for (double& v : y.data) v = std::max(0.0, v);
    return y;
}

Matrix feed_forward(const Matrix& x, const FeedForward& ffn, FeedForwardCache* cache) {
    Matrix hidden = relu(linear(x, ffn.W1, ffn.b1));  // (n x d_ff)
    Matrix y = linear(hidden, ffn.W2, ffn.b2);        // (n x d_model)
    if (cache) *cache = {x, std::move(hidden)};
    return y;
}

Matrix feed_forward_backward(const Matrix& dy, const FeedForward& ffn,
                             const FeedForwardCache& cache, FeedForward& grad) {
    // y = hidden·W2 + b2
    Matrix d_hidden = linear_backward(dy, cache.hidden, ffn.W2, grad.W2, grad.b2);
    // hidden = relu(a): the gradient passes where hidden > 0
    for (std::size_t i = 0; i < d_hidden.data.size(); ++i)
        if (cache.hidden.data[i] <= 0.0) d_hidden.data[i] = 0.0;
    // a = x·W1 + b1
    return linear_backward(d_hidden, cache.x, ffn.W1, grad.W1, grad.b1);
}
