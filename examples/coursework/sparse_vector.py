"""A student's sparse vector, written literally from the textbook, as user code for ``dpcompendium audit``.

The sparse vector technique answers "is query i above the threshold T?" for a stream of queries, and stops after
the c-th "yes". Its input is a vector of query answers of a dataset; on a neighbouring dataset each answer moves by
at most Δ = 1 (``--neighbours queries --sensitivity 1``, implied by ``--input queries:K``). Lyu, Su and Li (2017)
list six published variants, four of them not ε-DP.

- ``sparse_vector`` — their Alg. 1: a noisy threshold T + Lap(2/ε), each answer compared with fresh Lap(4c/ε) noise;
  it returns the list of answers (True/False) and **ends at the c-th True**, so its length varies: ε-DP.
- ``sparse_vector_no_query_noise`` — their Alg. 5 (published by Stoddard et al.): the answers are compared without
  noise, and there is no cutoff; ``None`` marks the queries it was not asked to answer (past ``n_answer``). It is not
  ε'-DP for any ε': a query whose answer crosses the threshold flips the output with certainty.
- ``monotone_sparse_vector`` — their Alg. 7 for monotonic queries (all answers move the same way, as counts do
  under add-remove): half of Alg. 1's query noise. It is ε-DP under ``--neighbours monotone`` only; the ``queries``
  relation (answers moving in opposite directions) breaks it, and the audit says which relation it tested.

Try::

    dpcompendium audit examples/coursework/sparse_vector.py:sparse_vector_no_query_noise --epsilon 0.7 \\
        --input queries:10 --sensitivity 1 --samples 20000
"""


def sparse_vector(queries, rng, *, epsilon, threshold=1.0, c=1):
    """Lyu–Su–Li Alg. 1: True/False per query until the c-th True (then stop); ε-DP."""
    rho = rng.laplace(scale=2 / epsilon)
    answers, count = [], 0
    for q in queries:
        nu = rng.laplace(scale=4 * c / epsilon)
        if q + nu >= threshold + rho:
            answers.append(True)
            count += 1
            if count == c:
                break
        else:
            answers.append(False)
    return answers


def sparse_vector_no_query_noise(queries, rng, *, epsilon, threshold=1.0, n_answer=8):
    """WRONG — Lyu–Su–Li Alg. 5: no noise on the answers, no cutoff; None for the queries past n_answer."""
    rho = rng.laplace(scale=2 / epsilon)
    return [bool(q >= threshold + rho) if i < n_answer else None for i, q in enumerate(queries)]


def monotone_sparse_vector(queries, rng, *, epsilon, threshold=1.0, c=1):
    """Lyu–Su–Li Alg. 7 for monotonic queries (counts under add-remove: all answers move the same way): ε₁ = ε₂ =
    ε/2, a noisy threshold T + Lap(1/ε₁), each answer compared with Lap(c/ε₂) noise — half the query noise of
    Alg. 1 — and stop at the c-th True. ε-DP under ``--neighbours monotone``; not under ``queries`` (answers moving
    in opposite directions), where its loss reaches 1.5 ε for c = 1."""
    e1 = e2 = epsilon / 2
    rho = rng.laplace(scale=1 / e1)
    answers, count = [], 0
    for q in queries:
        if q + rng.laplace(scale=c / e2) >= threshold + rho:
            answers.append(True)
            count += 1
            if count == c:
                break
        else:
            answers.append(False)
    return answers
