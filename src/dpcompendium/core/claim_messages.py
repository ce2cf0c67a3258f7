"""The texts of the book's privacy claims (issue 48): the neighbour relations' names, and each chapter's sensitivity
descriptions, conditions and reasons, as message templates of the catalogue (:mod:`dpcompendium.core.messages`).

A chapter builds a claim's free text with ``message("claims.<chapter>.<what>", **params)``: its ``str`` is the
plain text (the CSV columns, byte for byte what the book wrote before), its MyST the text typeset (maths as maths,
not ASCII) in each language, so that a claims card on a Chinese page is Chinese by construction.
Entries: ``(id, English MyST, plain text, Chinese MyST)``, or ``(id, English MyST, Chinese MyST)`` where the
plain text is the English MyST; the maths of the Chinese is the English maths, in the
same order (``tests/test_messages_zh.py``), and the words follow the term base (``locales/zh_CN/terms.tsv``,
``tests/test_terms_zh.py``). A numeric parameter set inside ``$…$`` is passed as
:func:`dpcompendium.core.messages.tex` (its plain text as written, its MyST as TeX: ``1e-06`` → ``10^{-6}``).
"""

from __future__ import annotations

#: (message id, English MyST, plain text, Chinese MyST), or (message id, English MyST, Chinese MyST) where the plain
#: text is the English MyST.
#:
#: :meta hide-value:
CLAIM_MESSAGES: list[tuple[str, ...]] = [
    # the neighbour relations (core.privacy.NEIGHBOUR_RELATIONS), as a claims card and a statement name them
    ("claim.neighbours.replace-one", "replace-one", "替换一条记录"),
    ("claim.neighbours.add-remove", "add-remove", "增删一条记录"),
    ("claim.neighbours.local", "local", "本地（同一用户的任意两个输入）"),
    ("claim.neighbours.queries", "queries", "查询答案向量（每个答案至多变化其敏感度）"),
    ("claim.neighbours.monotone", "monotone", "单调查询（所有答案同向变化）"),
    ("claim.neighbours.one-query", "one-query", "仅一个查询答案变化"),
    ("claim.implied_delta", "implied by its own $\\delta = %(delta)s$", "implied by its own delta = %(delta)s",
     "由其自身的 $\\delta = %(delta)s$ 推出"),
    # the mechanism named from its method and variant ids (dp-mean: "composition (as-written)")
    ("claims.method_variant", "%(method)s (%(variant)s)", "%(method)s（%(variant)s）"),
    # dp-mean (chapters/dp_mean/estimators.py, modern.py)
    ("claims.dpmean.sens_sum_count_add_remove", "sum: $\\max(|a|, |b|) = %(big)s$; count: 1",
     "sum: max(|a|,|b|) = %(big)s; count: 1", "和为 $\\max(|a|, |b|) = %(big)s$，计数为 1"),
    ("claims.dpmean.sens_sum_count_replace_one", "sum: $b - a = %(d)s$; count: 0 ($n$ public)",
     "sum: b - a = %(d)s; count: 0 (n public)", "和为 $b - a = %(d)s$，计数为 0（$n$ 公开）"),
    ("claims.dpmean.why_composition",
     "noise $\\mathrm{Lap}(2 \\cdot %(scale)s/\\varepsilon)$ on a sum of sensitivity %(big)s under add-remove: "
     "guarantees only $\\varepsilon_{\\mathrm{eff}} = %(eff)s > \\varepsilon = %(eps)s$",
     "noise Lap(2*%(scale)s/eps) on a sum of sensitivity %(big)s under add-remove: guarantees only "
     "eps_eff = %(eff)s > eps = %(eps)s",
     "噪声 $\\mathrm{Lap}(2 \\cdot %(scale)s/\\varepsilon)$ 加在增删一条记录下敏感度为 %(big)s 的和上："
     "只能保证 $\\varepsilon_{\\mathrm{eff}} = %(eff)s > \\varepsilon = %(eps)s$"),
    ("claims.dpmean.sens_sum_public_n", "sum: $b - a = %(d)s$ ($n$ public, not noised)",
     "sum: b - a = %(d)s (n public, not noised)", "和为 $b - a = %(d)s$（$n$ 公开，不加噪）"),
    ("claims.dpmean.why_true_count",
     "uses the true count $n$, which add-remove neighbours change; no add-remove guarantee",
     "uses the true count n, which add-remove neighbours change; no add-remove guarantee",
     "使用真实计数 $n$，而增删一条记录的邻居数据集会改变它：在增删一条记录下没有任何保证"),
    ("claims.dpmean.why_resampling",
     "rejection renormalizes by $Z(s)$, which depends on the data: loss $\\varepsilon + \\ln Z(s')/Z(s) > "
     "\\varepsilon$ (e.g. all records at $a$ vs one moved to $b$)",
     "rejection renormalizes by Z(s), which depends on the data: loss eps + ln Z(s')/Z(s) > eps "
     "(e.g. all records at a vs one moved to b)",
     "拒绝采样按 $Z(s)$ 重新归一化，而它依赖于数据：隐私损失为 $\\varepsilon + \\ln Z(s')/Z(s) > "
     "\\varepsilon$（例如所有记录都取 $a$，对比其中一条移到 $b$）"),
    ("claims.dpmean.sens_sum_mean", "sum: $b - a = %(d)s$; mean: $(b - a)/n$ ($n$ public, not noised)",
     "sum: b - a = %(d)s; mean: (b - a)/n (n public, not noised)",
     "和为 $b - a = %(d)s$，均值为 $(b - a)/n$（$n$ 公开，不加噪）"),
    ("claims.dpmean.cond_clamped_add_remove",
     "$\\varepsilon \\ge 2 \\ln 2 = 1.386$: the true count sets the noise scale $(b-a)/(n\\varepsilon)$, "
     "worst-case loss $\\max(\\varepsilon, \\ln 2 + \\varepsilon/2)$",
     "eps >= 2 ln 2 = 1.386: the true count sets the noise scale (b-a)/(n eps), worst-case loss "
     "max(eps, ln 2 + eps/2)",
     "$\\varepsilon \\ge 2 \\ln 2 = 1.386$：噪声尺度 $(b-a)/(n\\varepsilon)$ 由真实计数决定，最坏情况下的隐私损失为 "
     "$\\max(\\varepsilon, \\ln 2 + \\varepsilon/2)$"),
    ("claims.dpmean.why_clamped_add_remove",
     "the true count sets the noise scale $(b-a)/(n\\varepsilon)$: worst-case loss $\\max(\\varepsilon, \\ln 2 + "
     "\\varepsilon/2) = %(loss)s > \\varepsilon$ for $\\varepsilon < 2 \\ln 2$; witness $D = \\{a\\}$ vs "
     "$D' = \\{a, b\\}$, output near $(a+b)/2$: density ratio $2 e^{\\varepsilon/2} = %(ratio)s > e^{\\varepsilon}$",
     "the true count sets the noise scale (b-a)/(n eps): worst-case loss max(eps, ln 2 + eps/2) = %(loss)s > eps "
     "for eps < 2 ln 2; witness D={a} vs D'={a,b}, output near (a+b)/2: density ratio 2 e^(eps/2) = %(ratio)s "
     "> e^eps",
     "噪声尺度 $(b-a)/(n\\varepsilon)$ 由真实计数决定：最坏情况下的隐私损失 $\\max(\\varepsilon, \\ln 2 + "
     "\\varepsilon/2) = %(loss)s > \\varepsilon$（当 $\\varepsilon < 2 \\ln 2$ 时）；见证数据对：$D = \\{a\\}$ 对比 "
     "$D' = \\{a, b\\}$，输出在 $(a+b)/2$ 附近时密度比为 $2 e^{\\varepsilon/2} = %(ratio)s > e^{\\varepsilon}$"),
    ("claims.dpmean.n_public", "$n \\ge 1$ public (replace-one)", "n >= 1 public (replace-one)",
     "$n \\ge 1$ 公开（替换一条记录）"),
    ("claims.dpmean.sens_centred_replace_one", "centred sum: $b - a = %(d)s$ (centring does not help); count: 0",
     "centred sum: b - a = %(d)s (centring does not help); count: 0",
     "中心化和为 $b - a = %(d)s$（中心化无济于事），计数为 0"),
    ("claims.dpmean.why_spends", "over-noised: spends %(spent)s of $\\varepsilon$", "over-noised: spends %(spent)s of eps",
     "噪声过大：只用掉了 $\\varepsilon$ 中的 %(spent)s"),
    ("claims.dpmean.sens_centred_add_remove", "centred sum: $(b - a)/2 = %(x)s$; count: 1",
     "centred sum: (b - a)/2 = %(x)s; count: 1", "中心化和为 $(b - a)/2 = %(x)s$，计数为 1"),
    ("claims.dpmean.why_normalized",
     "over-noised: $\\mathrm{Lap}(2(b-a)/\\varepsilon)$ on sensitivity $(b-a)/2$ spends %(spent)s of $\\varepsilon$",
     "over-noised: Lap(2(b-a)/eps) on sensitivity (b-a)/2 spends %(spent)s of eps",
     "噪声过大：$\\mathrm{Lap}(2(b-a)/\\varepsilon)$ 加在敏感度为 $(b-a)/2$ 的量上，只用掉了 $\\varepsilon$ 中的 "
     "%(spent)s"),
    ("claims.dpmean.mech_quantile", "DP quantile (exponential mechanism)",
     "差分隐私分位数（指数机制）"),
    ("claims.dpmean.sens_rank", "rank score function: $\\Delta u = 1$", "rank utility: 1",
     "秩打分函数：$\\Delta u = 1$"),
    ("claims.dpmean.cond_records_output_domain", "records and output in the public domain $[%(lo)s, %(hi)s]$",
     "records and output in the public domain [%(lo)s, %(hi)s]", "记录与输出都在公开的取值域 $[%(lo)s, %(hi)s]$ 内"),
    ("claims.dpmean.cond_n_public", "$n$ public", "n public", "$n$ 公开"),
    ("claims.dpmean.mech_private_bounds", "private-bounds mean", "用差分隐私估计的边界求均值"),
    ("claims.dpmean.sens_private_bounds", "each quantile: rank 1; clipped sum: $u - l$ (the private bounds)",
     "each quantile: rank 1; clipped sum: u - l (the private bounds)",
     "每个分位数：秩 1；裁剪后的和：$u - l$（差分隐私估计的边界）"),
    ("claims.dpmean.cond_records_domain", "records in the public domain $[%(lo)s, %(hi)s]$",
     "records in the public domain [%(lo)s, %(hi)s]", "记录都在公开的取值域 $[%(lo)s, %(hi)s]$ 内"),
    ("claims.dpmean.cond_bounds_budget", "budget: $%(q)s \\varepsilon$ per quantile, $%(m)s \\varepsilon$ for the mean",
     "budget: %(q)s eps per quantile, %(m)s eps for the mean",
     "隐私预算：每个分位数 $%(q)s \\varepsilon$，均值 $%(m)s \\varepsilon$"),
    ("claims.dpmean.mech_gaussian", "Gaussian mean (analytic calibration)",
     "高斯均值（解析校准）"),
    ("claims.dpmean.sens_gaussian", "mean: $(b - a)/n = %(x)s$ ($\\ell_2 = \\ell_1$ for one number)",
     "mean: (b - a)/n = %(x)s (l2 = l1 for one number)", "均值：$(b - a)/n = %(x)s$（对单个数，$\\ell_2 = \\ell_1$）"),
    ("claims.dpmean.cond_gaussian_sigma",
     "$\\sigma = %(sigma)s$ by the analytic Gaussian calibration (also $%(rho)s$-zCDP)",
     "sigma = %(sigma)s by the analytic Gaussian calibration (also %(rho)s-zCDP)",
     "$\\sigma = %(sigma)s$，由解析高斯校准得到（同时满足 $%(rho)s$-zCDP）"),
    ("claims.dpmean.mech_coinpress", "CoinPress mean (zCDP)", "CoinPress 均值（zCDP）"),
    ("claims.dpmean.sens_coinpress",
     "step $t$: clipped mean, $2(r_t + \\gamma)/n$ (the step's interval, set by earlier releases)",
     "step t: clipped mean, 2(r_t + gamma)/n (the step's interval, set by earlier releases)",
     "第 $t$ 步：裁剪后的均值，$2(r_t + \\gamma)/n$（该步的区间，由先前的发布决定）"),
    ("claims.dpmean.cond_coinpress_rho",
     "$\\rho = %(rho)s$-zCDP over %(k)s steps (shares %(shares)s), converted to $(\\varepsilon, \\delta)$",
     "rho = %(rho)s-zCDP over %(k)s steps (shares %(shares)s), converted to (eps, delta)",
     "$\\rho = %(rho)s$-zCDP，分 %(k)s 步（各步份额 %(shares)s），再换算为 $(\\varepsilon, \\delta)$"),
    ("claims.dpmean.cond_starts_domain", "starts from the public domain $[%(lo)s, %(hi)s]$",
     "starts from the public domain [%(lo)s, %(hi)s]", "从公开的取值域 $[%(lo)s, %(hi)s]$ 开始"),
    ("claims.dpmean.mech_centred_replace_one", "centred mean (replace-one calibration)", "中心化均值（按替换一条记录校准）"),
    ("claims.dpmean.sens_centred_public_n", "centred sum: $b - a = %(d)s$; count: 0 ($n$ public, not noised)",
     "centred sum: b - a = %(d)s; count: 0 (n public, not noised)",
     "中心化和为 $b - a = %(d)s$，计数为 0（$n$ 公开，不加噪）"),
    ("claims.dpmean.cond_all_on_sum", "all of $\\varepsilon$ on the centred sum", "all of eps on the centred sum",
     "全部 $\\varepsilon$ 用于中心化和"),
    ("claims.dpmean.cond_split", "split: $%(s)s \\varepsilon$ on the sum, $%(c)s \\varepsilon$ on the count",
     "split: %(s)s eps on the sum, %(c)s eps on the count", "分配：和用 $%(s)s \\varepsilon$，计数用 $%(c)s \\varepsilon$"),
    ("claims.dpmean.mech_centred_add_remove", "centred mean (add-remove calibration)", "中心化均值（按增删一条记录校准）"),
    ("claims.dpmean.sens_centred_twice",
     "centred sum: $b - a = %(d)s$, twice its add-remove sensitivity, so it spends $2 \\times %(s)s \\varepsilon$; "
     "count: 0 ($n$ never changes)",
     "centred sum: b - a = %(d)s, twice its add-remove sensitivity, so it spends 2 x %(s)s eps; count: 0 "
     "(n never changes)",
     "中心化和为 $b - a = %(d)s$，是其在增删一条记录下敏感度的两倍，因此花费 $2 \\times %(s)s \\varepsilon$；"
     "计数为 0（$n$ 从不改变）"),
    ("claims.dpmean.cond_run_at", "run at add-remove $\\varepsilon = %(eps)s$", "run at add-remove eps = %(eps)s",
     "按增删一条记录的 $\\varepsilon = %(eps)s$ 运行"),
    ("claims.dpmean.mech_centred_own", "centred mean (own calibration)",
     "中心化均值（按自身敏感度校准）"),
    # hiera (chapters/hiera/levels.py, numeric.py, hiera.py, idldp.py)
    ("claims.hiera.public_scaling",
     "each raw value is mapped into the domain $[-1, 1]$ by a declared public range and clipped "
     "(the chapter's declared ranges, each with its source; fnlwgt's and "
     "capital-loss's maxima have no documented bound and are the data's maxima rounded up, so what they reveal "
     "(roughly the largest record's value) is not covered by this guarantee), never by the data's own min/max",
     "each raw value is mapped into the domain [-1, 1] by a declared public range and clipped "
     "(the chapter's declared ranges, each with its source; fnlwgt's and "
     "capital-loss's maxima have no documented bound and are the data's maxima rounded up, so what they reveal "
     "(roughly the largest record's value) is not covered by this guarantee), never by the data's own min/max",
     "每个原始值都按声明的公开范围映射到取值域 $[-1, 1]$ 并裁剪（本章声明的范围，各附来源；"
     "fnlwgt 和 capital-loss 的最大值没有文档记载的界，取自数据最大值向上取整，"
     "因此它们所透露的信息（大致是最大一条记录的值）不受这一保证覆盖），从不使用数据自身的最小值或最大值"),
    ("claims.hiera.sens_numeric", "domain $[-1, 1]$ (width 2)", "domain [-1, 1] (width 2)", "取值域 $[-1, 1]$（宽度 2）"),
    ("claims.hiera.mech_graded_as_written", "graded-laplace (as written)",
     "分级拉普拉斯（原文写法）"),
    ("claims.hiera.why_graded",
     "noise scale $2/\\varepsilon_t$ depends on the value's level: the density ratio between values of two levels "
     "is unbounded in the tails, so no finite $\\varepsilon$ holds",
     "noise scale 2/eps_t depends on the value's level: the density ratio between values of two levels "
     "is unbounded in the tails, so no finite epsilon holds",
     "噪声尺度 $2/\\varepsilon_t$ 取决于值所在的等级：不同等级的两个值之间的密度比在尾部无界，因此任何有限的 "
     "$\\varepsilon$ 都不成立"),
    ("claims.hiera.mech_graded",
     "LHP / HierA with budgets (%(used)s), meeting the graded bound $\\min(\\varepsilon_t, \\varepsilon_{t'})$ "
     "between levels $t, t'$ ($\\varepsilon_t$ = %(levels)s); as a whole",
     "LHP / HierA with budgets (%(used)s), meeting the graded bound min(eps_t, eps_t') between levels t, t' "
     "(eps_t = %(levels)s); as a whole",
     "LHP / HierA，隐私预算为 (%(used)s)，满足分级上界 $\\min(\\varepsilon_t, \\varepsilon_{t'})$（在等级 $t, t'$ "
     "之间；$\\varepsilon_t$ = %(levels)s）；整体而言"),
    ("claims.hiera.sens_report", "report $(t^*, v^*)$, $v^* \\in \\{-1, +1\\}$, value domain $[-1, 1]$",
     "report (t*, v*), v* in {-1, +1}, value domain [-1, 1]",
     "报告 $(t^*, v^*)$，$v^* \\in \\{-1, +1\\}$，取值域为 $[-1, 1]$"),
    ("claims.hiera.sens_levels",
     "domain $[-1, 1]$ split into levels; report $(t^*, v^*)$ with $t^* \\in \\{1, \\ldots, k\\}$, "
     "$v^* \\in \\{-1, +1\\}$",
     "domain [-1, 1] split into levels; report (t*, v*) with t* in {1..k}, v* in {-1, +1}",
     "取值域 $[-1, 1]$ 划分为若干等级；报告 $(t^*, v^*)$，其中 $t^* \\in \\{1, \\ldots, k\\}$，$v^* \\in \\{-1, +1\\}$"),
    ("claims.hiera.mech_level", "LHP level %(t)s", "LHP 第 %(t)s 等级"),
    ("claims.hiera.why_level",
     "exact worst-case log-ratio for a level-%(t)s value is $%(exact)s > \\varepsilon_t = %(eps)s$",
     "exact worst-case log-ratio for a level-%(t)s value is %(exact)s > eps_t = %(eps)s",
     "第 %(t)s 等级的值的精确最坏情况对数比为 $%(exact)s > \\varepsilon_t = %(eps)s$"),
    ("claims.hiera.mech_sgd", "LHP in SGD (level from $x$, value = gradient)",
     "LHP in SGD (level from x, value = gradient)", "SGD 中的 LHP（等级取自 $x$，值为梯度）"),
    # which LHP a card's row is (referee 5, m11): the source's budgets, or its shape calibrated to exactly eps-LDP
    ("claims.hiera.mech_source", "%(what)s with the source's budgets (%(used)s)", "%(what)s，采用原文的隐私预算（%(used)s）"),
    # the SGD's schedule {2ε, …, ε}, the text's, not the code's {5ε, …, ε} (native review 8, A4)
    ("claims.hiera.mech_text", "%(what)s with the text's budgets (%(used)s)", "%(what)s，采用文中预算（%(used)s）"),
    ("claims.hiera.mech_budgets", "%(what)s with budgets (%(used)s)",
     "%(what)s，隐私预算为（%(used)s）"),
    ("claims.hiera.mech_calibrated",
     "%(what)s calibrated: budgets (%(used)s), the schedule's shape scaled so that one report is exactly "
     "$\\varepsilon$-LDP",
     "%(what)s calibrated: budgets (%(used)s), the schedule's shape scaled so that one report is exactly eps-LDP",
     "%(what)s（校准后）：隐私预算为（%(used)s），按方案的比例整体缩放，使每份报告恰好满足 $\\varepsilon$-LDP"),
    ("claims.hiera.mech_idue",
     "IDUE mean (rounding onto the level ends), meeting the graded bound $\\min(\\varepsilon_t, \\varepsilon_{t'})$ "
     "between levels $t, t'$ ($\\varepsilon_t$ = %(levels)s); as a whole",
     "IDUE mean (rounding onto the level ends), meeting the graded bound min(eps_t, eps_t') between levels "
     "t, t' (eps_t = %(levels)s); as a whole",
     "IDUE 均值（取整到各等级的端点），满足分级上界 $\\min(\\varepsilon_t, \\varepsilon_{t'})$（在等级 $t, t'$ "
     "之间；$\\varepsilon_t$ = %(levels)s）；整体而言"),
    ("claims.hiera.sens_idue", "bit vector of %(k)s bits, value domain $[-1, 1]$",
     "bit vector of %(k)s bits, value domain [-1, 1]", "%(k)s 位的比特向量，取值域为 $[-1, 1]$"),
    # PrivUnitG (core/mechanisms/privunit.py)
    ("claims.privunit.mech", "PrivUnitG (budget split $\\varepsilon = \\varepsilon_0 + \\varepsilon_1$)",
     "PrivUnitG (budget split eps = eps_0 + eps_1)", "PrivUnitG（隐私预算分配为 $\\varepsilon = \\varepsilon_0 + \\varepsilon_1$）"),
    ("claims.privunit.sens", "any vector of $\\ell_2$ norm at most $%(c)s$", "any vector of l2 norm at most %(c)s",
     "任意 $\\ell_2$ 范数不超过 $%(c)s$ 的向量"),
    ("claims.privunit.cond_clip", "each input vector is clipped to $\\ell_2$ norm $%(c)s$ before the mechanism",
     "each input vector is clipped to l2 norm %(c)s before the mechanism",
     "每个输入向量在进入机制前被裁剪到 $\\ell_2$ 范数 $%(c)s$"),
    # histograms (core/mechanisms/ranges.py, dawa.py; chapters/histograms/experiment.py)
    ("claims.ranges.identity", "every cell: $L_1$ sensitivity %(f)s", "every cell: L1 sensitivity %(f)s",
     "每个单元格：$L_1$ 敏感度 %(f)s"),
    ("claims.ranges.least_squares",
     "the measured queries: $L_1$ sensitivity %(f)s × (largest number of queries covering one cell)",
     "the measured queries: L1 sensitivity %(f)s × (largest number of queries covering one cell)",
     "所测量的查询：$L_1$ 敏感度 %(f)s ×（覆盖同一单元格的查询数的最大值）"),
    ("claims.ranges.hb", "one node per level of an $(h+1)$-level tree: $L_1$ sensitivity $%(f)s(h + 1)$",
     "one node per level of an (h+1)-level tree: L1 sensitivity %(f)s(h + 1)",
     "$(h+1)$ 层树的每层一个节点：$L_1$ 敏感度 $%(f)s(h + 1)$"),
    ("claims.ranges.privelet",
     "Haar coefficients: $L_1$ sensitivity $%(f)s \\cdot \\prod_a (m_a + 1)$, $m_a = \\lceil \\log_2 n_a \\rceil$",
     "Haar coefficients: L1 sensitivity %(f)s·Π_a(m_a + 1), m_a = ⌈log₂ n_a⌉",
     "Haar 系数：$L_1$ 敏感度 $%(f)s \\cdot \\prod_a (m_a + 1)$，$m_a = \\lceil \\log_2 n_a \\rceil$"),
    ("claims.ranges.public", "the domain (shape of the histogram) and the queries are public", "取值域（直方图的形状）与查询都是公开的"),
    ("claims.dawa.sens_proved",
     "partition: noisy bucket costs, dev moves by $\\le %(f)s \\cdot 2(1 - 1/L)$ per bucket, threshold shift "
     "$\\le %(f)s \\cdot (\\Delta_L + \\Delta_{\\max})$ ($\\varepsilon_1 = %(e1)s$); measurement: weighted hierarchy, "
     "path weights sum to 1, $L_1$ sensitivity %(f)s ($\\varepsilon_2 = %(e2)s$)",
     "partition: noisy bucket costs, dev moves by ≤ %(f)s·2(1 − 1/L) per bucket, threshold shift ≤ "
     "%(f)s·(Δ_L + Δ_max) (ε₁ = %(e1)s); measurement: weighted hierarchy, path weights sum to 1, "
     "L1 sensitivity %(f)s (ε₂ = %(e2)s)",
     "划分：加噪的桶代价，每个桶的 dev 变化 $\\le %(f)s \\cdot 2(1 - 1/L)$，阈值移动 "
     "$\\le %(f)s \\cdot (\\Delta_L + \\Delta_{\\max})$（$\\varepsilon_1 = %(e1)s$）；测量：加权层次结构，每条路径的权重和为 "
     "1，$L_1$ 敏感度 %(f)s（$\\varepsilon_2 = %(e2)s$）"),
    ("claims.dawa.sens_noisy_histogram",
     "partition: noisy histogram $\\mathrm{Lap}(%(f)s/\\varepsilon_1)$ per cell, $L_1$ sensitivity %(f)s "
     "($\\varepsilon_1 = %(e1)s$), the least-cost partition of it is post-processing; measurement: weighted "
     "hierarchy, path weights sum to 1, $L_1$ sensitivity %(f)s ($\\varepsilon_2 = %(e2)s$)",
     "partition: noisy histogram Lap(%(f)s/ε₁) per cell, L1 sensitivity %(f)s (ε₁ = %(e1)s), the least-cost "
     "partition of it is post-processing; measurement: weighted hierarchy, path weights sum to 1, L1 sensitivity "
     "%(f)s (ε₂ = %(e2)s)",
     "划分：每个单元格加 $\\mathrm{Lap}(%(f)s/\\varepsilon_1)$ 噪声的加噪直方图，$L_1$ 敏感度 %(f)s"
     "（$\\varepsilon_1 = %(e1)s$），在其上求代价最小的划分是后处理；测量：加权层次结构，每条路径的权重和为 1，"
     "$L_1$ 敏感度 %(f)s（$\\varepsilon_2 = %(e2)s$）"),
    ("claims.dawa.public", "the domain and the workload are public",
     "取值域与查询集都是公开的"),
    ("claims.dawa.mech_noisy_histogram", "dawa (partition on a noisy histogram)", "DAWA（在加噪直方图上划分）"),
    ("claims.dawa.mech_authors", "dawa (DPBench's calibration)",
     "DPBench 版 DAWA"),
    ("claims.dawa.why_authors",
     "the partition's noisy costs are clamped at $\\Delta/\\varepsilon_2$, single cells get no noise and the others "
     "half the scale the argument needs: one record can move a partition's probability by far more than "
     "$e^{\\varepsilon_1}$, so the partition is not $%(e1)s$-DP (the audit finds a larger log-ratio)",
     "the partition's noisy costs are clamped at Δ/ε₂, single cells get no noise and the others half the "
     "scale the argument needs: one record can move a partition's probability by far more than e^ε₁, so the "
     "partition is not %(e1)s-DP (the audit finds a larger log-ratio)",
     "划分的加噪代价被钳制在 $\\Delta/\\varepsilon_2$，单个单元格不加噪，其余单元格的噪声尺度只有论证所需的一半："
     "一条记录可以使某个划分的概率变化远超 $e^{\\varepsilon_1}$ 倍，因此该划分并不满足 $%(e1)s$-DP（审计得到更大的对数比）"),
    # the histograms chapter's own names and texts
    ("claims.hist.mech_dawa_private", "DAWA (partition on a noisy histogram)",
     "DAWA（在加噪直方图上划分）"),
    ("claims.hist.mech_dawa_dpbench", "DAWA (DPBench's calibration)",
     "DPBench 版 DAWA"),
    ("claims.hist.title_identity", "Identity", "Identity"),
    ("claims.hist.title_uniform", "Uniform", "均匀估计（Uniform）"),
    ("claims.hist.title_hierarchical", "Hierarchical ($H_b$)", "Hierarchical (Hb)", "层次方法（$H_b$）"),
    ("claims.hist.title_php", "P-HP (the authors' procedure)", "P-HP（作者实现）"),
    ("claims.hist.title_least_squares", "Least squares", "最小二乘"),
    ("claims.hist.sens_identity", "histogram $L_1$ sensitivity 1", "histogram L1 sensitivity 1",
     "直方图的 $L_1$ 敏感度 1"),
    ("claims.hist.sens_uniform", "total count, sensitivity 1", "总计数，敏感度 1"),
    ("claims.hist.sens_hierarchical",
     "one node per level: $L_1$ sensitivity $h + 1$ for a tree of $h + 1$ levels ($H_b$, Qardaji et al.'s $b$)",
     "one node per level: L1 sensitivity h + 1 for a tree of h + 1 levels (Hb, Qardaji et al.'s b)",
     "每层一个节点：$L_1$ 敏感度 $h + 1$，树共 $h + 1$ 层（$H_b$，Qardaji 等人的 $b$）"),
    ("claims.hist.sens_ahp",
     "noisy histogram ($\\Delta_1 = 1$, $\\varepsilon_1$) then disjoint cluster sums ($\\Delta_1 = 1$, "
     "$\\varepsilon_2$)",
     "noisy histogram (Δ₁ = 1, ε₁) then disjoint cluster sums (Δ₁ = 1, ε₂)",
     "加噪直方图（$\\Delta_1 = 1$，$\\varepsilon_1$），然后对互不相交的簇求和（$\\Delta_1 = 1$，$\\varepsilon_2$）"),
    ("claims.hist.sens_php",
     "EM stop/split decisions on SAE scores ($\\Delta u = 2$, $\\varepsilon_{\\mathrm{cluster}}/(2 \\cdot "
     "\\mathrm{depth})$ each, $\\le \\mathrm{depth} - 1$ per record); EM over the intermediate partitions on their "
     "total error ($\\Delta u = 2$, $\\varepsilon_{\\mathrm{cluster}}/2$); part sums ($\\Delta_1 = 1$, "
     "$\\varepsilon_{\\mathrm{count}}$)",
     "EM stop/split decisions on SAE scores (Δu = 2, ε_cluster/(2·depth) each, ≤ depth − 1 per record); EM "
     "over the intermediate partitions on their total error (Δu = 2, ε_cluster/2); part sums (Δ₁ = 1, ε_count)",
     "基于 SAE 打分、由指数机制（EM）作出的停止/划分决策（$\\Delta u = 2$，每次 $\\varepsilon_{\\mathrm{cluster}}/(2 \\cdot "
     "\\mathrm{depth})$，每条记录 $\\le \\mathrm{depth} - 1$ 次）；按总误差在各中间划分上运行的 EM（$\\Delta u = 2$，"
     "$\\varepsilon_{\\mathrm{cluster}}/2$）；各部分的和（$\\Delta_1 = 1$，$\\varepsilon_{\\mathrm{count}}$）"),
    ("claims.hist.sens_privtree",
     "split decisions on biased counts $\\max(c - d\\delta, \\theta - \\delta) + \\mathrm{Lap}(\\lambda)$ with "
     "$\\lambda = 3/\\varepsilon_{\\mathrm{tree}}$, $\\delta = \\lambda \\ln 2$ (Zhang et al.'s Theorem 3.2, "
     "$\\beta = 2$, $\\varepsilon_{\\mathrm{tree}} = \\varepsilon/2$); leaf counts ($\\Delta_1 = 1$, "
     "$\\varepsilon_{\\mathrm{count}} = \\varepsilon/2$)",
     "split decisions on biased counts max(c − dδ, θ − δ) + Lap(λ) with λ = 3/ε_tree, δ = λ ln 2 (Zhang et al.'s "
     "Theorem 3.2, β = 2, ε_tree = ε/2); leaf counts (Δ₁ = 1, ε_count = ε/2)",
     "按有偏计数 $\\max(c - d\\delta, \\theta - \\delta) + \\mathrm{Lap}(\\lambda)$ 决定是否划分，其中 "
     "$\\lambda = 3/\\varepsilon_{\\mathrm{tree}}$，$\\delta = \\lambda \\ln 2$（Zhang 等人的定理 3.2，"
     "$\\beta = 2$，$\\varepsilon_{\\mathrm{tree}} = \\varepsilon/2$）；叶节点计数（$\\Delta_1 = 1$，"
     "$\\varepsilon_{\\mathrm{count}} = \\varepsilon/2$）"),
    ("claims.hist.sens_hdmm",
     "the optimised strategy $A = [I; \\Theta]\\,D$ on its grid: $L_1$ sensitivity "
     "$\\max_j \\lVert A_{:,j} \\rVert_1 \\le 1$ (computed on the rounded matrix that runs); least squares is "
     "post-processing",
     "the optimised strategy A = [I; Θ]·D on its grid: L1 sensitivity max_j ‖A[:, j]‖₁ ≤ 1 (computed on the rounded "
     "matrix that runs); least squares is post-processing",
     "网格上的优化策略 $A = [I; \\Theta]\\,D$：$L_1$ 敏感度 "
     "$\\max_j \\lVert A_{:,j} \\rVert_1 \\le 1$（按实际运行的舍入后矩阵计算）；最小二乘是后处理"),
    ("claims.hist.mech_levelwise", "P-HP (level-wise)", "P-HP（逐层）"),
    ("claims.hist.sens_levelwise",
     "EM on SAE scores ($\\Delta u = 2$, $\\varepsilon_1/\\mathrm{depth}$ per level, parallel within a level), part "
     "sums ($\\Delta_1 = 1$, $\\varepsilon_2$); a level-wise reading of P-HP, not the authors' procedure",
     "EM on SAE scores (Δu = 2, ε₁/depth per level, parallel within a level), part sums (Δ₁ = 1, ε₂); a level-wise "
     "reading of P-HP, not the authors' procedure",
     "基于 SAE 打分的 EM（$\\Delta u = 2$，每层 $\\varepsilon_1/\\mathrm{depth}$，同层内并行），各部分的和"
     "（$\\Delta_1 = 1$，$\\varepsilon_2$）；这是对 P-HP 的逐层解读，并非作者的算法"),
    ("claims.hist.mech_grouping", "Sampling grouping (%(centres)s%(s5)s)",
     "抽样分组（%(centres)s%(s5)s）"),
    ("claims.hist.centres_private", "noisy centres", "加噪中心"),
    ("claims.hist.centres_as-written", "true centres, as written", "真实中心，原文写法"),
    ("claims.hist.s5_sum", ", S5 on the sum", "，S5 对和加噪"),
    ("claims.hist.s5_mean", ", S5 on the mean", "，S5 对均值加噪"),
    ("claims.hist.noise_sum",
     "group mean $\\Delta = 1/m_j$ with $\\mathrm{Lap}(1/(m_j \\varepsilon_2))$ (S5 read as scaled to the group)",
     "group mean Δ = 1/m_j with Lap(1/(m_j ε₂)) (S5 read as scaled to the group)",
     "组均值 $\\Delta = 1/m_j$，噪声为 $\\mathrm{Lap}(1/(m_j \\varepsilon_2))$（S5 解读为按组缩放）"),
    ("claims.hist.noise_mean",
     "$\\mathrm{Lap}(1/\\varepsilon_2)$ on each group mean (S5 read as unit sensitivity; the mean's is "
     "$1/m_j \\le 1$)",
     "Lap(1/ε₂) on each group mean (S5 read as unit sensitivity; the mean's is 1/m_j ≤ 1)",
     "对每个组均值加 $\\mathrm{Lap}(1/\\varepsilon_2)$（S5 解读为单位敏感度；均值的敏感度为 $1/m_j \\le 1$）"),
    ("claims.hist.sens_grouping_private",
     "noisy histogram for centres ($\\Delta_1 = 1$, $\\varepsilon_0$); EM per bin on its own count ($\\Delta u = 1$, "
     "$\\varepsilon_1$, parallel over bins); %(noise)s",
     "noisy histogram for centres (Δ₁ = 1, ε₀); EM per bin on its own count (Δu = 1, ε₁, parallel over bins); "
     "%(noise)s",
     "用于选中心的加噪直方图（$\\Delta_1 = 1$，$\\varepsilon_0$）；每个桶按自身计数运行 EM（$\\Delta u = 1$，"
     "$\\varepsilon_1$，各桶并行）；%(noise)s"),
    ("claims.hist.sens_grouping_as_written", "claimed $\\Delta u = 1$ for the EM; centre selection has no noise; %(noise)s",
     "claimed Δu = 1 for the EM; centre selection has no noise; %(noise)s",
     "声称 EM 的 $\\Delta u = 1$；中心选择不加噪；%(noise)s"),
    ("claims.hist.why_grouping",
     "k-means++ centre selection on true counts spends no budget (a neighbour can turn a zero-probability centre "
     "choice into a positive one: unbounded loss), and true centre counts in every score let one record shift all "
     "$n - k$ exponential-mechanism draws (loss up to $(n - k) \\cdot \\varepsilon_1/2$); either reading of S5",
     "k-means++ centre selection on true counts spends no budget (a neighbour can turn a zero-probability "
     "centre choice into a positive one: unbounded loss), and true centre counts in every score let one "
     "record shift all n - k exponential-mechanism draws (loss up to (n - k)·ε₁/2); either reading of S5",
     "k-means++ 在真实计数上选择中心，不花费任何隐私预算（一个邻居数据集可以把概率为零的中心选择变为正概率：隐私损失无界），"
     "而每个打分中的真实中心计数使一条记录能移动全部 $n - k$ 次指数机制抽样（隐私损失至多 $(n - k) \\cdot "
     "\\varepsilon_1/2$）；对 S5 的两种解读皆如此"),
    # the Gaussian mechanism's calibrations (core/mechanisms/gaussian.py)
    ("claims.gauss.analytic",
     "analytic calibration (Balle & Wang 2018): the smallest $\\sigma$ that is $(\\varepsilon, \\delta)$-DP, any "
     "$\\varepsilon$",
     "analytic calibration (Balle & Wang 2018): the smallest sigma that is (eps, delta)-DP, any eps",
     "解析校准（Balle & Wang 2018）：取最小的 $\\sigma$ 使之满足 $(\\varepsilon, \\delta)$-DP，对任意 $\\varepsilon$ 均适用"),
    ("claims.gauss.auto", "classical $\\sigma$ where valid, else %(cond)s", "classical sigma where valid, else %(cond)s",
     "经典 $\\sigma$ 有效时用经典校准，否则用%(cond)s"),
    ("claims.gauss.classical",
     "classical calibration $\\sigma = \\Delta \\sqrt{2 \\ln(1.25/\\delta)}/\\varepsilon$, proved for $\\varepsilon < 1$",
     "classical calibration sigma = Delta sqrt(2 ln(1.25/delta))/eps, proved for eps < 1",
     "经典校准 $\\sigma = \\Delta \\sqrt{2 \\ln(1.25/\\delta)}/\\varepsilon$，仅对 $\\varepsilon < 1$ 有证明"),
    ("claims.gauss.classical_valid",
     "classical calibration at $\\varepsilon \\ge 1$, outside its proof: valid here by the exact privacy profile "
     "(Balle & Wang 2018), exact $\\varepsilon = %(exact)s \\le %(eps)s$",
     "classical calibration at eps >= 1, outside its proof: valid here by the exact privacy profile "
     "(Balle & Wang 2018), exact eps = %(exact)s <= %(eps)s",
     "在 $\\varepsilon \\ge 1$ 处使用经典校准，超出其证明范围：此处由精确的隐私曲线（Balle & Wang 2018）确认有效，"
     "精确 $\\varepsilon = %(exact)s \\le %(eps)s$"),
    ("claims.gauss.why_classical",
     "classical calibration outside its validity ($\\varepsilon \\ge 1$): its exact $\\varepsilon$ at "
     "$\\delta = %(delta)s$ is $%(exact)s > %(eps)s$ (Balle & Wang 2018); use the analytic calibration",
     "classical calibration outside its validity (eps >= 1): its exact eps at delta = %(delta)s is "
     "%(exact)s > %(eps)s (Balle & Wang 2018); use the analytic calibration",
     "经典校准超出其有效范围（$\\varepsilon \\ge 1$）：其精确 $\\varepsilon$（在 $\\delta = %(delta)s$ 处）为 "
     "$%(exact)s > %(eps)s$（Balle & Wang 2018）；应改用解析校准"),
    # federated-pca (chapters/federated_pca/methods.py, cape.py, power.py)
    ("claims.fedpca.sens_cov",
     "$L_2$ sensitivity of $A = X^\\top X/n$ (upper triangle), rows in the unit ball: $%(formula)s = %(value)s$",
     "L2 sensitivity of A = X^T X/n (upper triangle), rows in the unit ball: %(formula)s = %(value)s",
     "$L_2$ 敏感度（对 $A = X^\\top X/n$ 的上三角部分），各行在单位球内：$%(formula)s = %(value)s$"),
    ("claims.fedpca.na", "n/a", "不适用"),
    ("claims.fedpca.why_no_noise", "no noise: releases the exact eigenvectors", "不加噪声：发布精确的特征向量"),
    ("claims.fedpca.mech_central", "Analyze Gauss (trusted curator)",
     "Analyze Gauss（可信的数据管理者）"),
    ("claims.fedpca.sens_dpdispca", "$\\sqrt{2}/N_i$ per site ($1/N_i$ add-remove)",
     "sqrt(2)/N_i per site (1/N_i add-remove)", "每个站点 $\\sqrt{2}/N_i$（增删一条记录时为 $1/N_i$）"),
    ("claims.fedpca.why_dpdispca",
     "each site's release is $(\\varepsilon, \\delta)$-DP w.r.t. its own rows; sites are disjoint (parallel "
     "composition)",
     "each site's release is (eps, delta)-DP w.r.t. its own rows; sites are disjoint (parallel composition)",
     "每个站点的发布对其自身的行满足 $(\\varepsilon, \\delta)$-DP；各站点互不相交（并行组合）"),
    ("claims.fedpca.mech_shared_seed", "ELFedPCA shared-seed", "ELFedPCA（共享随机种子）"),
    ("claims.fedpca.why_shared_seed",
     "every site knows $E/s$ from the shared seed, so site 1 (the server) or any site recovers $A_i = A_i' - E/s$ "
     "exactly: local covariances are released without noise",
     "every site knows E/s from the shared seed, so site 1 (the server) or any site recovers "
     "A_i = A_i' - E/s exactly: local covariances are released without noise",
     "每个站点都能由共享种子得知 $E/s$，因此站点 1（服务器）或任何站点都能精确恢复 $A_i = A_i' - E/s$："
     "各站点的协方差在没有噪声的情况下被发布"),
    # the end-to-end release's claim (its claims card; native-edition check: English on the Chinese page)
    ("claims.fedpca.e2e_mech",
     "%(sub)s at $(\\varepsilon/2, \\delta/2)$, then noisy projections and GRR labels",
     "%(sub)s at (eps/2, delta/2), then noisy projections and GRR labels",
     "%(sub)s，取 $(\\varepsilon/2, \\delta/2)$；然后是加噪投影和 GRR 标签"),
    ("claims.fedpca.e2e_sens",
     "subspace: its own guarantee; projections: $L_2$ sensitivity %(s)s of $Y = X V'$ (one row, rows in the unit ball) "
     "with Gaussian noise at $(\\varepsilon/4, \\delta/2)$; labels: GRR at $\\varepsilon/4$",
     "subspace: its own guarantee; projections: L2 sensitivity %(s)s of Y = X V' (one row, rows in the unit ball) with "
     "Gaussian noise at (eps/4, delta/2); labels: GRR at eps/4",
     "子空间：按其自身的保证；投影：$L_2$ 敏感度为 %(s)s，针对 $Y = X V'$（一行，各行在单位球内），加高斯噪声，取 "
     "$(\\varepsilon/4, \\delta/2)$；标签：GRR，取 $\\varepsilon/4$"),
    ("claims.fedpca.e2e_why",
     "basic composition of the three shares (adaptive: the projections use the released $V'$)",
     "basic composition of the three shares (adaptive: the projections use the released V')",
     "三份预算份额的顺序组合（按基本组合定理；自适应：投影使用已发布的 $V'$）"),
    ("claims.fedpca.mech_secure_aggregation", "secure aggregation of $N(0, \\tau^2/s)$ shares",
     "secure aggregation of N(0, tau^2/s) shares", "对服从 $N(0, \\tau^2/s)$ 的噪声份额做安全聚合"),
    ("claims.fedpca.why_secure_aggregation",
     "$(\\varepsilon, \\delta)$-DP against the server and outsiders; a coalition of the server and $c$ of the %(s)s "
     "sites faces noise variance $\\tau^2 (s-c)/s$ on the others ($\\mu$ of $\\mu$-GDP grows by $\\sqrt{s/(s-c)}$, "
     "$\\varepsilon$ at fixed $\\delta$ roughly so, not as a bound)",
     "(eps, delta)-DP against the server and outsiders; a coalition of the server and c of the %(s)s sites "
     "faces noise variance tau^2 (s-c)/s on the others (mu of mu-GDP grows by sqrt(s/(s-c)), eps at fixed delta "
     "roughly so, not as a bound)",
     "对服务器和外部人员满足 $(\\varepsilon, \\delta)$-DP；服务器与 %(s)s 个站点中的 $c$ 个合谋时，其余站点上的噪声方差为 "
     "$\\tau^2 (s-c)/s$（$\\mu$-GDP 的 $\\mu$ 恰好增大为原来的 $\\sqrt{s/(s-c)}$ 倍，$\\varepsilon$ 在固定 "
     "$\\delta$ 时大致如此，但这不是上界）"),
    ("claims.fedpca.real_shares",
     "the shares $E_i$ are real-valued: the accounting is for the real-valued sum of Gaussian shares; the "
     "fixed-point encoding modulo $2^{64}$ and its rounding, which the implementation sums, are not analysed (the "
     "distributed discrete Gaussian or Skellam mechanism would cover them)",
     "the shares E_i are real-valued: the accounting is for the real-valued sum of Gaussian shares; the fixed-point "
     "encoding modulo 2^64 and its rounding, which the implementation sums, are not analysed (the distributed "
     "discrete Gaussian or Skellam mechanism would cover them)",
     "份额 $E_i$ 为实数：隐私会计针对的是高斯份额的实数和；实现中实际求和的模 $2^{64}$ 定点编码及其舍入未作分析"
     "（分布式离散高斯机制或 Skellam 机制可以涵盖它们）"),
    ("claims.fedpca.cond_subspace",
     "what is published is the subspace $V'$ (and what is computed from it alone), not the projections "
     "$Y_i = X_i V'$ of the source's step 7, which are not private (what each SVM row publishes is stated apart)",
     "what is published is the subspace V' (and what is computed from it alone), not the projections "
     "Y_i = X_i V' of the source's step 7, which are not private (what each SVM row publishes is stated apart)",
     "发布的是子空间 $V'$（以及仅由它算出的量），而不是原文第 7 步的投影 $Y_i = X_i V'$——后者不满足差分隐私"
     "（SVM 各行发布的内容另行说明）"),
    ("claims.fedpca.cond_preprocessing",
     "rows preprocessed with public statistics only (declared domain bounds and centre, per-row scaling into the "
     "unit ball)",
     "各行只用公开的统计量预处理（声明的取值域边界与中心，逐行缩放到单位球内）"),
    ("claims.fedpca.cond_public_n", "$n$ and the site sizes $N_i$ are public (replace-one neighbours)",
     "n and the site sizes N_i are public (replace-one neighbours)",
     "$n$ 与各站点的大小 $N_i$ 都是公开的（邻居数据集按替换一条记录定义）"),
    ("claims.fedpca.why_as_written",
     "the as-written preprocessing scales by the data's own ranges and centres by the exact global mean, so one "
     "record moves every row: the measured norm of $A(D') - A(D)$ is %(m)s, against $\\Delta = \\sqrt{2}/n = %(d)s$ "
     "(%(r)s times) on the audit's replace-one pair (1000 identical rows and two rows fixing the ranges, $n = 1002$)",
     "the as-written preprocessing scales by the data's own ranges and centres by the exact global mean, "
     "so one record moves every row: the measured norm of A(D') - A(D) is %(m)s, against Delta = sqrt(2)/n "
     "= %(d)s (%(r)s times) on the audit's replace-one pair (1000 identical rows and two rows fixing the ranges, "
     "n = 1002)",
     "原文写法的预处理按数据自身的范围缩放、按精确的全局均值中心化，因此一条记录会移动每一行：实测 $A(D') - A(D)$ "
     "的范数为 %(m)s，而 $\\Delta = \\sqrt{2}/n = %(d)s$（前者为后者的 %(r)s 倍）；这是在审计所用的替换一条记录的数据对上"
     "（1000 条相同的行，另有两行固定范围，$n = 1002$）"),
    ("claims.fedpca.why_add_remove",
     "add-remove with an exact $n$: every protocol reveals $n$ (step 1, and the noise scale $1/n$), which add-remove "
     "neighbours change; with $n$ public the relation is replace-one, $\\Delta = \\sqrt{2}/n$",
     "add-remove with an exact n: every protocol reveals n (step 1, and the noise scale 1/n), which "
     "add-remove neighbours change; with n public the relation is replace-one, Delta = sqrt(2)/n",
     "增删一条记录而 $n$ 精确：每个协议都会泄露 $n$（第 1 步，以及噪声尺度 $1/n$），而增删一条记录的邻居数据集会改变它；"
     "$n$ 公开时邻居关系为替换一条记录，$\\Delta = \\sqrt{2}/n$"),
    ("claims.fedpca.mech_cape", "CAPE correlated noise (%(variant)s)",
     "CAPE 相关噪声（%(variant)s）"),
    ("claims.fedpca.cape_calibrated", "calibrated", "校准后"),
    ("claims.fedpca.cape_as-published", "as-published", "论文原方案"),
    ("claims.fedpca.sens_cape",
     "$\\sqrt{2}/n$ on each site's message; Mahalanobis sensitivity of the joint view (module cape)",
     "sqrt(2)/n on each site's message; Mahalanobis sensitivity of the joint view (module cape)",
     "每个站点的消息上为 $\\sqrt{2}/n$；联合视图的 Mahalanobis 敏感度（见 CAPE 模块）"),
    ("claims.fedpca.cond_cape_public",
     "$n$ and the site sizes are public; rows preprocessed with public statistics into the unit ball",
     "n and the site sizes are public; rows preprocessed with public statistics into the unit ball",
     "$n$ 与各站点的大小都是公开的；各行用公开的统计量预处理到单位球内"),
    ("claims.fedpca.cond_cape_coalition",
     "a coalition of the server and $c$ of the %(s)s sites sees more (coalition, first order, not a bound: $c = s-1$ gives about "
     "$\\varepsilon \\sqrt{s}$)",
     "a coalition of the server and c of the %(s)s sites sees more (coalition, first order, not a bound: c = s-1 gives about "
     "eps*sqrt(s))",
     "服务器与 %(s)s 个站点中的 $c$ 个合谋时能看到更多（合谋时的一阶近似，不是上界：$c = s-1$ 时约为 $\\varepsilon \\sqrt{s}$）"),
    ("claims.fedpca.cond_cape_zero_sum", "the zero-sum noise is generated by a secure sum of noise only", "和为零的噪声仅由噪声的安全求和生成"),
    ("claims.fedpca.why_cape",
     "each message is $(\\varepsilon, \\delta)$-DP, but the server sees all %(s)s: their contrasts carry the "
     "correlated noise, and the joint view is only $(%(exact)s, %(delta)s)$-DP (Mahalanobis sensitivity "
     "$\\sqrt{2s/(s+1)} = %(factor)s \\times$ the calibrated one)",
     "each message is (eps, delta)-DP, but the server sees all %(s)s: their contrasts carry the correlated "
     "noise, and the joint view is only (%(exact)s, %(delta)s)-DP (Mahalanobis sensitivity "
     "sqrt(2s/(s+1)) = %(factor)s x the calibrated one)",
     "每条消息满足 $(\\varepsilon, \\delta)$-DP，但服务器能看到全部 %(s)s 条：它们之间的差包含相关噪声，联合视图只满足 "
     "$(%(exact)s, %(delta)s)$-DP（Mahalanobis 敏感度为 $\\sqrt{2s/(s+1)} = %(factor)s \\times$ 校准值）"),
    ("claims.fedpca.mech_power", "DP noisy power method (%(iters)s iterations)", "差分隐私加噪幂迭代法（%(iters)s 次迭代）"),
    ("claims.fedpca.sens_power",
     "$\\sqrt{2}/n$ per iteration ($\\|(yy^\\top - xx^\\top)X\\|_F/n$ $\\le \\|yy^\\top - xx^\\top\\|_F/n$, $X$ "
     "orthonormal), %(iters)s adaptive Gaussian releases compose exactly into sensitivity $\\sqrt{2L}/n = %(sens)s$",
     "sqrt(2)/n per iteration (||(yy^T - xx^T)X||_F/n <= ||yy^T - xx^T||_F/n, X orthonormal), %(iters)s adaptive "
     "Gaussian releases compose exactly into sensitivity sqrt(2L)/n = %(sens)s",
     "每次迭代 $\\sqrt{2}/n$（$\\|(yy^\\top - xx^\\top)X\\|_F/n$ $\\le \\|yy^\\top - xx^\\top\\|_F/n$，$X$ 的各列标准正交），"
     "%(iters)s 次自适应的高斯发布恰好组合为敏感度 $\\sqrt{2L}/n = %(sens)s$"),
    ("claims.fedpca.cond_power_public",
     "$n$ is public (replace-one); rows preprocessed with public statistics into the unit ball",
     "n is public (replace-one); rows preprocessed with public statistics into the unit ball",
     "$n$ 公开（替换一条记录）；各行用公开的统计量预处理到单位球内"),
    ("claims.fedpca.cond_power_federated",
     "federated: each site's share $A_i X + N(0, \\sigma^2/s)$ under secure aggregation (same law for the server)",
     "federated: each site's share A_i X + N(0, sigma^2/s) under secure aggregation (same law for the server)",
     "联邦设置：每个站点的份额 $A_i X + N(0, \\sigma^2/s)$ 经安全聚合（对服务器而言分布相同）"),
    # the privacy-audit chapter's catalogue: what a row's verdict means (chapters/privacy_audit/catalog.py)
    ("audit.finding.holds", "holds", "成立"),
    ("audit.finding.violated", "mechanism violated", "机制违反其声明"),
    ("audit.finding.step", "step exceeds its proof share", "该步骤超出其证明所分配的份额"),
    # every private row of a claims table (core/privacy.py ClaimsTable; referee 10, V11)
    ("claim.cond_real_arithmetic",
     "idealised real arithmetic (floating-point sampling is not exactly DP; see the audit chapter, §6.5)",
     "理想化的实数运算（浮点数采样并不严格满足差分隐私；见审计一章第 6.5 节）"),
    # mwem's claims (chapters/mwem/core.py), so that its claims table is Chinese on a Chinese page
    # the mwem variants' mechanism names (a claims card's first column; native review 9: English on the Chinese page)
    ("claims.mwem.mech_standard", "MWEM (standard)", "标准 MWEM"),
    ("claims.mwem.mech_zcdp", "MWEM (zCDP, Gaussian measurements)", "MWEM（zCDP，高斯测量）"),
    ("claims.mwem.mech_coursework", "MWEM (coursework)", "MWEM 课程作业变体"),
    # AIM and MST at the chapter's budget (their claims cards on the Chinese page were English)
    ("claims.mwem.mech_aim", "AIM (mbi estimation)", "AIM（mbi 估计）"),
    ("claims.mwem.mech_mst", "MST (Private-PGM estimate)", "MST（图模型估计）"),
    ("claims.mwem.mech_mst_nc", "MST without domain compression (Private-PGM estimate)",
     "MST（不压缩取值域，图模型估计）"),
    # the Gaussian baselines at AIM's budget (reader review 4, m4: the Chinese claims cards named them in English)
    ("claims.mwem.mech_gaussian-identity", "Gaussian Identity (zCDP)", "高斯 Identity（zCDP）"),
    ("claims.mwem.mech_gaussian-ls", "Gaussian least squares (zCDP)", "高斯最小二乘（zCDP）"),
    ("claims.mwem.mech_independence", "Independence model on the one-way marginals (zCDP)",
     "一维边缘上的独立性模型（zCDP）"),
    ("claims.mwem.mech_gaussian-identity-fit", "Gaussian Identity, non-negative fit (zCDP)",
     "高斯 Identity 加非负拟合（zCDP）"),
    ("claims.mwem.sens", "1 for every range count and for the score $|q(A) - q(B)|$",
     "1 for every range count and for the score |q(A) − q(B)|",
     "每个范围计数及打分 $|q(A) - q(B)|$ 均为 1"),
    ("claims.mwem.sens_l12", "1 for every range count and for the score $|q(A) - q(B)|$ (L1 and L2)",
     "1 for every range count and for the score |q(A) − q(B)| (L1 and L2)",
     "每个范围计数及打分 $|q(A) - q(B)|$ 均为 1（L1 与 L2）"),
    ("claims.mwem.cond_public_domain",
     "the histogram's domain (its cells, e.g. a value range) is public, declared before seeing the data (the "
     "library's runs take it as given); not $\\min(B) \\ldots \\max(B)$ of the data, as the coursework code "
     "computes it",
     "the histogram's domain (its cells, e.g. a value range) is public, declared before seeing the data (the "
     "library's runs take it as given); not min(B)…max(B) of the data, as the coursework code computes it",
     "直方图的取值域（其单元格，例如取值范围）是公开的，在看到数据之前声明（本库的运行将其视为给定），而不是像课程作业"
     "代码那样取数据的 $\\min(B) \\ldots \\max(B)$"),
    ("claims.mwem.cond_zcdp",
     "accounted in zCDP: $T = %(T)s$ exponential mechanisms at $\\varepsilon_0 = %(eps0)s$, each "
     "$\\rho/(2T)$-zCDP (bounded range), and $T$ Gaussian measurements with $\\sigma = %(sigma)s$, each "
     "$\\rho/(2T)$-zCDP, compose to $\\rho = %(rho)s$-zCDP, converted to $(\\varepsilon, \\delta)$-DP by "
     "$\\varepsilon = \\rho + 2 \\sqrt{\\rho \\ln(1/\\delta)}$",
     "accounted in zCDP: T = %(T)s exponential mechanisms at ε₀ = %(eps0)s, each ρ/(2T)-zCDP (bounded range), and "
     "T Gaussian measurements with σ = %(sigma)s, each ρ/(2T)-zCDP, compose to ρ = %(rho)s-zCDP, converted to "
     "(ε, δ)-DP by ε = ρ + 2 sqrt(ρ ln(1/δ))",
     "按 zCDP 进行隐私会计：$T = %(T)s$ 个指数机制，各取 $\\varepsilon_0 = %(eps0)s$，每个为 $\\rho/(2T)$-zCDP（有界范围），"
     "以及 $T$ 次高斯测量，取 $\\sigma = %(sigma)s$，每次为 $\\rho/(2T)$-zCDP，组合为 $\\rho = %(rho)s$-zCDP，"
     "换算为 $(\\varepsilon, \\delta)$-DP 的公式为 $\\varepsilon = \\rho + 2 \\sqrt{\\rho \\ln(1/\\delta)}$"),
    ("claims.mwem.cond_redraw",
     "the number of re-draws per round (MWEMResult.draws) and the running time are not released: it is geometric "
     "with a data-dependent success probability, and each extra draw is one more exponential-mechanism selection "
     "that this accounting does not charge",
     "每轮重新抽取的次数（以及运行时间）不予发布：它服从成功概率依赖于数据的几何分布，且每多抽取一次"
     "就多一次指数机制的选择，而本隐私会计并未计入"),
    # every claims table's caption (reader review 2, M5: the claims tables were the book's uncaptioned tables)
    ("claims.caption",
     "The privacy claims: each method's guarantee, neighbour relation, sensitivity and the conditions it rests on",
     "隐私声明：各方法的隐私保证、邻居关系、敏感度及其成立的前提"),
    # federated-pca: the SVM accuracies at the smallest epsilon, from the run's means (referee 10, V7)
    ("fedpca.svm_lo",
     "At the smallest $\\varepsilon$ (%(eps)s), averaged over the datasets, DPdisPCA's accuracy is %(dpdis)s and "
     "the pooled-noise subspaces' %(items)s: %(k)s of the %(m)s reach DPdisPCA's mean (this run's means, not a "
     "test; the tests above compare central DP-PCA with DPdisPCA setting by setting)",
     "At the smallest eps (%(eps)s), averaged over the datasets, DPdisPCA's accuracy is %(dpdis)s and "
     "the pooled-noise subspaces' %(items)s: %(k)s of the %(m)s reach DPdisPCA's mean (this run's means, not a "
     "test; the tests above compare central DP-PCA with DPdisPCA setting by setting)",
     "在最小的 $\\varepsilon$（%(eps)s）下，DPdisPCA 在各数据集上的平均准确率为 %(dpdis)s，汇集噪声的子空间则为 "
     "%(items)s：%(m)s 个中有 %(k)s 个达到 DPdisPCA 的均值（这是本次运行的均值，不是检验；上面的检验逐个参数组合比较"
     "中心化 DP-PCA 与 DPdisPCA）"),
    ("fedpca.svm_lo_item", "%(method)s %(acc)s", "%(method)s %(acc)s"),
    # dp-mean's takeaways in short (referee 10, V9; reader review 2: at most about 300 characters each), the
    # counts from the comparison objects' outcomes
    # each dataset is its own Holm family: the counts per dataset, not pooled (referee 19, L-1)
    ("dpmean.take_cp",
     "Here, CoinPress's MSE against the DP-quantile mean's: %(counts)s; a configuration picked after the fact: "
     "%(factor)s× its RMSE",
     "在这里，与“用差分隐私估计的边界求均值”相比，CoinPress 的 MSE：%(counts)s；事后挑选的一个配置，"
     "其 RMSE 是所用配置的 %(factor)s 倍"),
    ("dpmean.take_by_data", "%(data)s: %(verdicts)s", "%(data)s：%(verdicts)s"),
    ("dpmean.take_gauss",
     "against method 3 at the same $(\\varepsilon,\\delta)$, its MSE: %(counts)s",
     "与相同 $(\\varepsilon,\\delta)$ 下的方法 3 相比，其 MSE：%(counts)s"),
    # dp-mean's clipping range: a lead sentence, the numbers in a table (issue 49: no enumeration in prose)
    ("dpmean.clip_lead",
     "The table after the figure gives, for each dataset and $n$, the upper bound that minimises the RMSE, against "
     "the declared one. %(trend)s. The minimising bound is a function of the data: choosing it from the data costs "
     "privacy (the private bounds below)",
     "图后的表格列出每个数据集和 $n$ 下使 RMSE 最小的上界，并与声明的上界对照。%(trend)s。使 RMSE 最小的上界是数据的"
     "函数：从数据中选取它要消耗隐私（见下文差分隐私估计的边界）"),
    ("dpmean.clip_grows",
     "As $n$ grows the noise shrinks, clipping bias weighs more and the minimising bound moves up towards the "
     "largest records",
     "随着 $n$ 增大，噪声减小，裁剪偏差的影响变大，使 RMSE 最小的上界向最大的记录上移"),
    ("dpmean.clip_not_grows",
     "the minimising bound does not move up with $n$ at every dataset here",
     "在这里并非每个数据集上使 RMSE 最小的上界都随 $n$ 上移"),
    # federated-pca: the Wishart mechanism as published (referee 10, issue 47), not epsilon-DP
    ("claims.fedpca.mech_wishart",
     "Wishart mechanism (as published): $A + W$, $W \\sim W_d(d+1, C)$, $C = \\frac{3}{2n\\varepsilon} I$",
     "Wishart mechanism (as published): A + W, W ~ W_d(d+1, C), C = 3/(2 n eps) I",
     "Wishart 机制（论文原方案）：$A + W$，$W \\sim W_d(d+1, C)$，$C = \\frac{3}{2n\\varepsilon} I$"),
    ("claims.fedpca.sens_wishart",
     "$\\operatorname{tr}(A' - A)$ $= (\\|x'\\|^2 - \\|x\\|^2)/n$ $\\in [-1/n, 1/n]$ (rows in the unit ball): a privacy "
     "loss of at most $\\varepsilon/3$ where both releases have a density",
     "tr(A' - A) = (||x'||^2 - ||x||^2)/n in [-1/n, 1/n] (rows in the unit ball): a privacy loss of at most eps/3 "
     "where both releases have a density",
     "$\\operatorname{tr}(A' - A)$ $= (\\|x'\\|^2 - \\|x\\|^2)/n$ $\\in [-1/n, 1/n]$（各行在单位球内）：在两个发布都有密度"
     "之处，隐私损失至多为 $\\varepsilon/3$"),
    ("claims.fedpca.why_wishart",
     "the release lies in $A$ plus the positive-definite cone, which moves with the data: when a unit row is "
     "replaced by $0$, the neighbour's release falls where this one has density $0$ with probability "
     "$1 - e^{-\\varepsilon/3} = %(p)s$, so no smaller $\\delta$ holds at any $\\varepsilon$; it is "
     "$(%(eps3)s, %(p)s)$-DP",
     "the release lies in A plus the positive-definite cone, which moves with the data: when a unit row is "
     "replaced by 0, the neighbour's release falls where this one has density 0 with probability "
     "1 - exp(-eps/3) = %(p)s, so no smaller delta holds at any eps; it is (%(eps3)s, %(p)s)-DP",
     "发布位于 $A$ 加正定锥之内，而这一区域随数据移动：把一条单位范数的行替换为 $0$ 时，邻居的发布落在本发布密度为 "
     "$0$ 之处的概率为 $1 - e^{-\\varepsilon/3} = %(p)s$，因此没有更小的 $\\delta$ 在任何 $\\varepsilon$ 下成立；"
     "它满足 $(%(eps3)s, %(p)s)$-DP"),
    ("claims.fedpca.cond_wishart",
     "$n$ is public (replace-one); rows preprocessed with public statistics into the unit ball",
     "n is public (replace-one); rows preprocessed with public statistics into the unit ball",
     "$n$ 公开（替换一条记录）；各行用公开的统计量预处理到单位球内"),
    # mwem's AIM rows (chapters/mwem/pgm.py aim_claim), so that its claims card is Chinese on a Chinese page
    ("claims.mwem.aim_sens",
     "a marginal: $%(l2)s$ in L2, $%(l1)s$ in L1; the selection's score: $%(l1)s \\max_r w_r$",
     "a marginal: %(l2)s in L2, %(l1)s in L1; the selection's score: %(l1)s · max w_r",
     "边缘计数向量：L2 为 $%(l2)s$，L1 为 $%(l1)s$；选择的打分：$%(l1)s \\max_r w_r$"),
    ("claims.mwem.aim_cond_zcdp",
     "accounted in zCDP: the $d = %(d)s$ one-way Gaussian measurements and the adaptive rounds (each an exponential "
     "mechanism, $\\varepsilon_t^2/8$-zCDP, and a Gaussian measurement, $1/(2\\sigma_t^2)$-zCDP; $T = %(T)s$ and "
     "$\\alpha = 0.9$ set the first $\\sigma$ and $\\varepsilon$) spend exactly $\\rho = %(rho)s$, converted to "
     "$(\\varepsilon, \\delta)$-DP by $\\varepsilon = \\rho + 2 \\sqrt{\\rho \\ln(1/\\delta)}$; the graphical-model "
     "estimate is post-processing",
     "accounted in zCDP: the d = %(d)s one-way Gaussian measurements and the adaptive rounds (each an exponential "
     "mechanism, ε_t^2/8-zCDP, and a Gaussian measurement, 1/(2 σ_t^2)-zCDP; T = %(T)s and α = 0.9 set the first σ "
     "and ε) spend exactly ρ = %(rho)s, converted to (ε, δ)-DP by ε = ρ + 2 sqrt(ρ ln(1/δ)); the graphical-model "
     "estimate is post-processing",
     "按 zCDP 进行隐私会计：$d = %(d)s$ 次一维边缘的高斯测量与各自适应轮次（每轮一个指数机制，"
     "$\\varepsilon_t^2/8$-zCDP，以及一次高斯测量，$1/(2\\sigma_t^2)$-zCDP；$T = %(T)s$ 与 $\\alpha = 0.9$ "
     "决定初始的 $\\sigma$ 与 $\\varepsilon$）恰好耗尽 $\\rho = %(rho)s$，换算为 $(\\varepsilon, \\delta)$-DP 的公式为 "
     "$\\varepsilon = \\rho + 2 \\sqrt{\\rho \\ln(1/\\delta)}$；图模型估计是后处理"),
    ("claims.mwem.aim_cond_public_n",
     "the number of records $n$ is public (the estimate's total is $n$)",
     "the number of records n is public (the estimate's total is n)",
     "记录数 $n$ 是公开的（估计的总数取 $n$）"),
    # mwem's Gaussian baselines at AIM's budget (chapters/mwem/gaussian.py gaussian_claim; referee 12, §3)
    ("claims.mwem.gauss_sens_identity",
     "the histogram: $%(l2)s$ in L2",
     "the histogram: %(l2)s in L2",
     "直方图：L2 为 $%(l2)s$"),
    ("claims.mwem.gauss_sens_ls",
     "the workload's answers: at most $%(l2)s$ in L2, an upper bound ($c_j$: the queries covering cell $j$)",
     "the workload's answers: at most %(l2)s in L2, an upper bound (c_j: the queries covering cell j)",
     "查询集的答案：L2 不超过 $%(l2)s$，这是一个上界（$c_j$：覆盖单元格 $j$ 的查询数）"),
    ("claims.mwem.gauss_cond_zcdp",
     "one Gaussian measurement, $\\rho = %(rho)s$-zCDP (AIM's budget), converted to $(\\varepsilon, \\delta)$-DP by "
     "$\\varepsilon = \\rho + 2 \\sqrt{\\rho \\ln(1/\\delta)}$; the estimate is post-processing",
     "one Gaussian measurement, ρ = %(rho)s-zCDP (AIM's budget), converted to (ε, δ)-DP by "
     "ε = ρ + 2 sqrt(ρ ln(1/δ)); the estimate is post-processing",
     "一次高斯测量，$\\rho = %(rho)s$-zCDP（AIM 的预算），换算为 $(\\varepsilon, \\delta)$-DP 的公式为 "
     "$\\varepsilon = \\rho + 2 \\sqrt{\\rho \\ln(1/\\delta)}$；估计是后处理"),
    # mwem's MST rows on Adult 2-D (chapters/mwem/mst.py mst_claim; referee 13, §3)
    ("claims.mwem.mst_sens",
     "a marginal: $%(l2)s$ in L2",
     "a marginal: %(l2)s in L2",
     "边缘计数向量：L2 为 $%(l2)s$"),
    ("claims.mwem.mst_cond_zcdp",
     "accounted in zCDP: the two one-way Gaussian measurements ($\\sigma_1 = %(s1)s$, $\\rho/6$ each) and the "
     "two-way one ($\\sigma_2 = %(s2)s$, $\\rho/3$) spend $2\\rho/3$ of $\\rho = %(rho)s$, the spanning tree's "
     "$\\rho/3$ being reserved (one candidate edge: a data-independent choice), converted to "
     "$(\\varepsilon, \\delta)$-DP by $\\varepsilon = \\rho + 2 \\sqrt{\\rho \\ln(1/\\delta)}$; the domain "
     "compression reads only noisy counts and the graphical-model estimate is post-processing",
     "accounted in zCDP: the two one-way Gaussian measurements (σ_1 = %(s1)s, ρ/6 each) and the two-way one "
     "(σ_2 = %(s2)s, ρ/3) spend 2ρ/3 of ρ = %(rho)s, the spanning tree's ρ/3 being reserved (one candidate edge: "
     "a data-independent choice), converted to (ε, δ)-DP by ε = ρ + 2 sqrt(ρ ln(1/δ)); the domain compression "
     "reads only noisy counts and the graphical-model estimate is post-processing",
     "按 zCDP 进行隐私会计：两次一维边缘的高斯测量（$\\sigma_1 = %(s1)s$，各 $\\rho/6$）与一次二维边缘的高斯测量"
     "（$\\sigma_2 = %(s2)s$，$\\rho/3$）共耗用 $2\\rho/3$（总预算为 $\\rho = %(rho)s$），生成树选择的 $\\rho/3$ 预留未用"
     "（只有一条候选边：与数据无关的选择），换算为 $(\\varepsilon, \\delta)$-DP 的公式为 "
     "$\\varepsilon = \\rho + 2 \\sqrt{\\rho \\ln(1/\\delta)}$；取值域压缩只读取加噪计数，图模型估计是后处理"),
    # mwem's MST without domain compression and Gaussian Identity with the non-negative total-n fit (referee 14, M1)
    ("claims.mwem.mst_nc_cond_zcdp",
     "accounted in zCDP: the two one-way Gaussian measurements ($\\sigma_1 = %(s1)s$, $\\rho/6$ each) and the "
     "two-way one of the whole domain ($\\sigma_2 = %(s2)s$, $\\rho/3$) spend $2\\rho/3$ of $\\rho = %(rho)s$, the "
     "spanning tree's $\\rho/3$ being reserved, converted to $(\\varepsilon, \\delta)$-DP by "
     "$\\varepsilon = \\rho + 2 \\sqrt{\\rho \\ln(1/\\delta)}$; no value is merged and the graphical-model "
     "estimate is post-processing",
     "accounted in zCDP: the two one-way Gaussian measurements (σ_1 = %(s1)s, ρ/6 each) and the two-way one of the "
     "whole domain (σ_2 = %(s2)s, ρ/3) spend 2ρ/3 of ρ = %(rho)s, the spanning tree's ρ/3 being reserved, converted "
     "to (ε, δ)-DP by ε = ρ + 2 sqrt(ρ ln(1/δ)); no value is merged and the graphical-model estimate is "
     "post-processing",
     "按 zCDP 进行隐私会计：两次一维边缘的高斯测量（$\\sigma_1 = %(s1)s$，各 $\\rho/6$）与一次整个取值域上的二维边缘高斯测量"
     "（$\\sigma_2 = %(s2)s$，$\\rho/3$）共耗用 $2\\rho/3$（总预算为 $\\rho = %(rho)s$），生成树选择的 $\\rho/3$ 预留未用，"
     "换算为 $(\\varepsilon, \\delta)$-DP 的公式为 $\\varepsilon = \\rho + 2 \\sqrt{\\rho \\ln(1/\\delta)}$；"
     "不合并任何取值，图模型估计是后处理"),
    # mwem's independence arm (referee 15, M1): both one-way marginals at rho/2 each, their product
    ("claims.mwem.independence_cond_zcdp",
     "accounted in zCDP: the two one-way Gaussian measurements ($\\sigma = %(s)s$, $\\rho/2$ each) spend all of "
     "$\\rho = %(rho)s$, converted to $(\\varepsilon, \\delta)$-DP by "
     "$\\varepsilon = \\rho + 2 \\sqrt{\\rho \\ln(1/\\delta)}$; the fit of each to total $n$ and their "
     "product are post-processing",
     "accounted in zCDP: the two one-way Gaussian measurements (σ = %(s)s, ρ/2 each) spend all of ρ = %(rho)s, "
     "converted to (ε, δ)-DP by ε = ρ + 2 sqrt(ρ ln(1/δ)); the fit of each to total n and their product are "
     "post-processing",
     "按 zCDP 进行隐私会计：两次一维边缘的高斯测量（$\\sigma = %(s)s$，各 $\\rho/2$）耗用全部 "
     "$\\rho = %(rho)s$，换算为 $(\\varepsilon, \\delta)$-DP 的公式为 "
     "$\\varepsilon = \\rho + 2 \\sqrt{\\rho \\ln(1/\\delta)}$；将每个边缘拟合到总数 $n$ 以及两者的乘积都是后处理"),
    ("claims.mwem.gauss_fit_cond_zcdp",
     "one Gaussian measurement, $\\rho = %(rho)s$-zCDP (AIM's budget), converted to $(\\varepsilon, \\delta)$-DP by "
     "$\\varepsilon = \\rho + 2 \\sqrt{\\rho \\ln(1/\\delta)}$; its Euclidean projection onto the non-negative "
     "histograms of total $n$ (MST's fit without the marginals) is post-processing",
     "one Gaussian measurement, ρ = %(rho)s-zCDP (AIM's budget), converted to (ε, δ)-DP by "
     "ε = ρ + 2 sqrt(ρ ln(1/δ)); its Euclidean projection onto the non-negative histograms of total n (MST's fit "
     "without the marginals) is post-processing",
     "一次高斯测量，$\\rho = %(rho)s$-zCDP（AIM 的预算），换算为 $(\\varepsilon, \\delta)$-DP 的公式为 "
     "$\\varepsilon = \\rho + 2 \\sqrt{\\rho \\ln(1/\\delta)}$；将其欧氏投影到总数为 $n$ 的非负直方图上"
     "（不含边缘的 MST 拟合）是后处理"),
    # hiera: the scalar mechanisms on the l2-clipped gradient (referee 11, M1)
    ("claims.hiera.mech_l2", "%(method)s on one sampled coordinate of the $\\ell_2$-clipped gradient",
     "%(method)s on one sampled coordinate of the l2-clipped gradient",
     "%(method)s，作用于按 $\\ell_2$ 范数裁剪后的梯度中随机抽取的一个坐标"),
    ("claims.hiera.cond_l2",
     "each user's whole gradient is clipped to $\\ell_2$ norm $%(c)s$ and the sampled coordinate divided by $%(c)s$ "
     "before the mechanism",
     "each user's whole gradient is clipped to l2 norm %(c)s and the sampled coordinate divided by %(c)s "
     "before the mechanism",
     "每个用户的整个梯度先被裁剪到 $\\ell_2$ 范数 $%(c)s$，抽取的坐标再除以 $%(c)s$，然后进入机制"),
    # dp-mean: the staircase mean (referee 12, §3: the staircase measured)
    ("claims.dpmean.mech_staircase", "staircase mean", "阶梯机制均值"),
    ("claims.dpmean.sens_staircase", "mean: $(b - a)/n = %(x)s$", "mean: (b - a)/n = %(x)s",
     "均值：$(b - a)/n = %(x)s$"),
    ("claims.dpmean.cond_staircase_gamma",
     "staircase noise with $\\gamma = %(gamma)s$ (any $\\gamma \\in [0, 1]$ is $\\varepsilon$-DP)",
     "staircase noise with gamma = %(gamma)s (any gamma in [0, 1] is eps-DP)",
     "阶梯噪声，$\\gamma = %(gamma)s$（任意 $\\gamma \\in [0, 1]$ 都满足 $\\varepsilon$-DP）"),
    # federated-pca: Laplace input perturbation of A's upper triangle (referee 12 §3), pure epsilon-DP
    ("claims.fedpca.mech_laplace",
     "Laplace input perturbation: $A + L$, $L$ symmetric, upper triangle iid $\\mathrm{Lap}((d/\\sqrt{2}+1)/(n\\varepsilon))$",
     "Laplace input perturbation: A + L, L symmetric, upper triangle iid Lap((d/sqrt(2)+1)/(n eps))",
     "拉普拉斯噪声输入扰动：$A + L$，$L$ 对称，上三角元素独立同分布于 $\\mathrm{Lap}((d/\\sqrt{2}+1)/(n\\varepsilon))$"),
    ("claims.fedpca.sens_laplace",
     "$\\ell_1$ of the upper triangle: $\\sum_{i \\le j} |x_i x_j - y_i y_j|/n$ $\\le (d/\\sqrt{2}+1)/n$ (rows in the unit ball)",
     "l1 of the upper triangle: sum_{i<=j} |x_i x_j - y_i y_j|/n <= (d/sqrt(2)+1)/n (rows in the unit ball)",
     "上三角的 $\\ell_1$ 敏感度：$\\sum_{i \\le j} |x_i x_j - y_i y_j|/n$ $\\le (d/\\sqrt{2}+1)/n$（各行在单位球内）"),
    ("claims.fedpca.sens_laplace_value",
     "$\\ell_1$ of the upper triangle: $\\sum_{i \\le j} |x_i x_j - y_i y_j|/n$ $\\le (d/\\sqrt{2}+1)/n = %(value)s$ (rows in "
     "the unit ball)",
     "l1 of the upper triangle: sum_{i<=j} |x_i x_j - y_i y_j|/n <= (d/sqrt(2)+1)/n = %(value)s (rows in the unit ball)",
     "上三角的 $\\ell_1$ 敏感度：$\\sum_{i \\le j} |x_i x_j - y_i y_j|/n$ $\\le (d/\\sqrt{2}+1)/n = %(value)s$（各行在单位球内）"),
    # federated-pca: PPCA, the exponential mechanism on one direction [chaudhuri2013near] (referee 14, comparator 3)
    ("claims.fedpca.mech_ppca",
     "PPCA: one direction $v$ drawn with density $\\propto \\exp((n\\varepsilon/2)\\, v^\\top A v)$ on the unit sphere "
     "(exponential mechanism, $k = 1$)",
     "PPCA: one direction v drawn with density ∝ exp((n eps/2) vᵀAv) on the unit sphere (exponential mechanism, k = 1)",
     "PPCA：一个方向 $v$，在单位球面上按密度 $\\propto \\exp((n\\varepsilon/2)\\, v^\\top A v)$ 抽取（指数机制，$k = 1$）"),
    ("claims.fedpca.sens_ppca",
     "the score $n\\, v^\\top A v = \\sum_i (v^\\top x_i)^2$: $1$ (rows in the unit ball)",
     "the score n vᵀAv = sum_i (vᵀx_i)^2: 1 (rows in the unit ball)",
     "打分 $n\\, v^\\top A v = \\sum_i (v^\\top x_i)^2$：$1$（各行在单位球内）"),
    ("claims.fedpca.cond_ppca",
     "the guarantee is that of an exact draw: rejection from an angular Gaussian envelope, exact at $k = 1$ "
     "(the only $k$ run)",
     "the guarantee is that of an exact draw: rejection from an angular Gaussian envelope, exact at k = 1 "
     "(the only k run)",
     "该保证针对精确抽样：以角向高斯分布为包络的拒绝抽样，在 $k = 1$ 时是精确的（只运行这一个 $k$）"),
    ("claims.fedpca.why_laplace",
     "pure $\\varepsilon$-DP ($\\delta = 0$), so $(\\varepsilon, \\delta)$-DP at every $\\delta$: stated at the "
     "$\\delta$ of the arm it is compared with",
     "pure eps-DP (delta = 0), so (eps, delta)-DP at every delta: stated at the delta of the arm it is compared with",
     "纯差分隐私（$\\varepsilon$-DP，$\\delta = 0$），因而是 $(\\varepsilon, \\delta)$-DP，对任意 $\\delta$ 都成立：此处按与之比较的"
     "那一组的 $\\delta$ 陈述"),
    ("claims.fedpca.why_wishart_satisfied",
     "what the chapter proves it satisfies: a privacy loss of at most $\\varepsilon/3$ where both releases have a "
     "density, and the neighbour's release outside this one's support with probability at most "
     "$1 - e^{-\\varepsilon/3} = %(p)s$, a $\\delta$ far above $1/n$: no privacy at the $\\delta$ of the other "
     "mechanisms",
     "what the chapter proves it satisfies: a privacy loss of at most eps/3 where both releases have a density, and "
     "the neighbour's release outside this one's support with probability at most 1 - exp(-eps/3) = %(p)s, a delta "
     "far above 1/n: no privacy at the delta of the other mechanisms",
     "本章证明它满足的保证：在两个发布都有密度之处，隐私损失至多为 $\\varepsilon/3$；邻居的发布落在本发布支撑集之外的"
     "概率至多为 $1 - e^{-\\varepsilon/3} = %(p)s$，这个 $\\delta$ 远大于 $1/n$：在其他机制的 $\\delta$ 下没有隐私"),
    # privacy-audit: a row whose audit checks the delta part of its claim only (referee 12, N4)
    ("audit.finding.delta_only",
     "holds, the $\\delta$ part only (event mass at most $\\delta$; the $e^{\\varepsilon/3}$ ratio not checked)",
     "holds, the delta part only (event mass at most delta; the e^(eps/3) ratio not checked)",
     "成立，仅限 $\\delta$ 的部分（事件概率至多为 $\\delta$；未检验 $e^{\\varepsilon/3}$ 的比值）"),
    # a row whose pair moves the release by a share of the sensitivity the noise is calibrated to (privacy_audit's
    # LOSS_ONLY_ROWS; none since the Laplace input perturbation row is audited on its worst pair, referee 14, A1)
    ("audit.finding.loss_only",
     "holds (the pair's loss; the sensitivity not checked)",
     "holds (the pair's loss; the sensitivity not checked)",
     "成立（仅检验该对输入的损失；未检验敏感度）"),
    # ProjUnit (core/mechanisms/privunit.py; referee 12, §3)
    ("claims.projunit.mech",
     "ProjUnit (a public random projection to $k = %(k)s$ dimensions, then PrivUnitG)",
     "ProjUnit (a public random projection to k = %(k)s dimensions, then PrivUnitG)",
     "ProjUnit（先做公开的随机投影到 $k = %(k)s$ 维，再用 PrivUnitG）"),
    ("claims.projunit.cond_public",
     "the projection is drawn independently of the data and may be public",
     "投影的抽取与数据无关，可以公开"),
]  # fmt: skip
