"""Interpolated modified Kneser-Ney n-gram models (Chen & Goodman 1998, §3.5), for chapter 12's
baselines: written here from the formulas, independently of the C++ (src/ngram/ngram.cpp).

A sequence [<bos>, c1, …, <eos>] is read with order − 2 more <bos> in front (at least one), so
that every predicted token (each one after the first <bos>) has order − 1 tokens of history. At the highest order the
counts are the raw counts; at each lower order they are continuation counts: how many distinct
tokens came before the (shorter) n-gram. At every order three discounts, for n-grams seen once,
twice, and three or more times,

    Y = n1 / (n1 + 2·n2),  D1 = 1 − 2·Y·n2/n1,  D2 = 2 − 3·Y·n3/n2,  D3+ = 3 − 4·Y·n4/n3

(n_k: how many n-grams of that order have count k), and

    P(w | h) = max(c(h w) − D(c(h w)), 0) / c(h ·)  +  γ(h) · P(w | h without its first token)
    γ(h)     = (D1·N1(h ·) + D2·N2(h ·) + D3+·N3+(h ·)) / c(h ·)

N_k(h ·): how many distinct w follow h with count k (N3+: three or more). A history never seen
gives the lower order's P alone; below the unigram is the uniform 1/V over the vocabulary."""
from collections import Counter, defaultdict
import math


def discounts(counts):
    """D1, D2, D3+ from the count-of-counts of one order's counts."""
    n = Counter(c for c in counts.values() if c <= 4)
    n1, n2, n3, n4 = (n[k] for k in (1, 2, 3, 4))
    if min(n1, n2, n3) == 0:  # too little text for the estimates: plain Kneser-Ney's 0.75
        return (0.75, 0.75, 0.75)
    y = n1 / (n1 + 2 * n2)
    d = (1 - 2 * y * n2 / n1, 2 - 3 * y * n3 / n2, 3 - 4 * y * n4 / n3)
    # an estimate outside (0, count) could take a probability to 0: 0.75 for all three
    if not all(0 < d[k] < k + 1 for k in range(3)):
        return (0.75, 0.75, 0.75)
    return d


def padded(s, order):
    """s with order − 2 more <bos> in front (at least one), and where its predictions start."""
    extra = max(order, 3) - 2
    return [s[0]] * extra + list(s), extra + 1


class KneserNey:
    def __init__(self, sequences, vocab, order):
        self.vocab, self.order = vocab, order
        grams = Counter()  # the highest order's raw counts
        for s in sequences:
            p, first = padded(s, order)
            for i in range(first, len(p)):
                grams[tuple(p[i - order + 1:i + 1])] += 1
        # counts by order (1 … order): raw at the top, continuation counts below
        self.counts = {order: grams}
        for k in range(order - 1, 0, -1):
            cont = Counter()
            for g in self.counts[k + 1]:
                cont[g[1:]] += 1  # one more distinct token before g[1:]
            self.counts[k] = cont
        self.d = {k: discounts(self.counts[k]) for k in self.counts}
        # per history: the total count and N1, N2, N3+ of what follows
        self.totals = {}
        for k, counts in self.counts.items():
            t = defaultdict(lambda: [0, 0, 0, 0])
            for g, c in counts.items():
                row = t[g[:-1]]
                row[0] += c
                row[min(c, 3)] += 1
            self.totals[k] = dict(t)

    def prob(self, history, w):
        p = 1.0 / self.vocab
        for k in range(1, self.order + 1):
            h = tuple(history[len(history) - (k - 1):]) if k > 1 else ()
            total = self.totals[k].get(h)
            if total is None:
                continue  # a history never seen: the lower order's estimate stands
            c = self.counts[k].get(h + (w,), 0)
            d1, d2, d3 = self.d[k]
            d = (0.0, d1, d2, d3)[min(c, 3)]
            gamma = (d1 * total[1] + d2 * total[2] + d3 * total[3]) / total[0]
            p = max(c - d, 0.0) / total[0] + gamma * p
        return p

    def loss(self, sequences):
        """Mean −log P over every token after the first <bos>, in nats."""
        total, n = 0.0, 0
        for s in sequences:
            p, first = padded(s, self.order)
            for i in range(first, len(p)):
                total -= math.log(self.prob(p[i - self.order + 1:i], p[i]))
                n += 1
        return total / n
