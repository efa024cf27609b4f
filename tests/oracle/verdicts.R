# verdicts.R - R's answers for the verdicts of a comparison (tests/verdicts.sh,
# stackscope(1), COMPARING), computed from the profiles themselves, not from
# stackscope:
#   Rscript verdicts.R MODE ALPHA BASE... -- NEW...
# prints one line per function and quantity (self, total) with a sample on
# either side: "name<TAB>quantity<TAB>lo<TAB>hi<TAB>p<TAB>q", the interval
# in samples (the delta with the base scaled to the new total), q
# Benjamini-Hochberg over the table's rows of that quantity (p.adjust).
# MODE:
#   indep   folded stacks, one file a side: the interval is prop.test
#           (correct = FALSE)'s of p_new - p_base, times the new total; p
#           from the variance under the null (both sides' samples about the
#           pooled share p0: sum over a side (I - p0)^2 / T^2) and pnorm
#   welch   several files a side: t.test on each file's share (R's Welch),
#           its interval times the new total
#   cycles  Rprof, one file a side: a row's runs (rle over its presence in
#           the sample sequence) cut into cycles (a run and the stretch to
#           the next run; the stretch before the first run is one more), the
#           ratio estimator's variance n / (n - 1) sum (X - p T)^2 / T^2 with
#           n - 1 degrees of freedom, floored by independent samples'
#           p (1 - p) / T (normal), Welch-Satterthwaite between the sides,
#           qt; the p-value from the same with the floor about the pooled
#           share (the cycles' residuals stay about each side's own).
args <- commandArgs(TRUE)
mode <- args[1]
alpha <- as.numeric(args[2])
sep <- which(args == "--")
base_files <- args[3:(sep - 1)]
new_files <- args[(sep + 1):length(args)]

# A file's samples: a list of character vectors, leaf first (folded lines
# are expanded to their counts, root last).
read_samples <- function(f) {
    l <- readLines(f)
    if (grepl("sample.interval=", l[1], fixed = TRUE)) {
        l <- l[-1]
        return(lapply(regmatches(l, gregexpr('"[^"]*"', l)), function(x) gsub('"', "", x)))
    }
    n <- as.integer(sub(".* ", "", l))
    st <- lapply(strsplit(sub(" [0-9]+$", "", l), ";", fixed = TRUE), rev)
    rep(st, n)
}
presence <- function(s, fn, self) {
    vapply(s, function(x) if (self) length(x) > 0 && x[1] == fn else fn %in% x, logical(1))
}

# Units of one side (cycles) for presence vector h: X and T per unit.
cycles <- function(h) {
    r <- rle(h)
    ends <- cumsum(r$lengths)
    starts <- ends - r$lengths + 1
    rs <- starts[r$values]
    rl <- r$lengths[r$values]
    n <- length(h)
    X <- rl
    Tc <- diff(c(rs, n + 1))
    if (length(rs) && rs[1] > 1) {
        X <- c(0, X)
        Tc <- c(rs[1] - 1, Tc)
    }
    list(X = X, T = Tc)
}
share_var <- function(h, q, qc = q) {
    n <- length(h)
    vi <- (sum(h) * (1 - q)^2 + (n - sum(h)) * q^2) / n^2
    if (mode != "cycles") return(list(v = vi, df = Inf))
    u <- cycles(h)
    k <- length(u$X)
    if (k < 2) return(list(v = vi, df = Inf))
    vr <- k / (k - 1) * sum((u$X - qc * u$T)^2) / n^2
    if (vr > vi) list(v = vr, df = k - 1) else list(v = vi, df = Inf)
}
welch_se <- function(a, b, t_new) {
    v <- a$v + b$v
    den <- (if (is.finite(a$df) && a$v > 0) a$v^2 / a$df else 0) +
        (if (is.finite(b$df) && b$v > 0) b$v^2 / b$df else 0)
    list(se = t_new * sqrt(v), df = if (den > 0) v^2 / den else Inf)
}
qtt <- function(p, df) if (is.finite(df)) qt(p, df) else qnorm(p)
ptt <- function(t, df) if (is.finite(df)) 2 * pt(-abs(t), df) else 2 * pnorm(-abs(t))

bs <- lapply(base_files, read_samples)
ns <- lapply(new_files, read_samples)
fns <- sort(unique(unlist(c(bs, ns))))
t_new <- sum(sapply(ns, length))
out <- NULL
for (self in c(TRUE, FALSE)) {
    rows <- NULL
    for (fn in fns) {
        hb <- lapply(bs, presence, fn = fn, self = self)
        hn <- lapply(ns, presence, fn = fn, self = self)
        xb <- sum(sapply(hb, sum))
        xn <- sum(sapply(hn, sum))
        if (xb + xn == 0) next
        if (mode == "welch") {
            sn <- sapply(hn, mean)
            sb <- sapply(hb, mean)
            if (var(sn) + var(sb) == 0) { # t.test refuses constant data
                lo <- hi <- (mean(sn) - mean(sb)) * t_new
                p <- as.numeric(lo == 0)
            } else {
                tt <- t.test(sn, sb, conf.level = 1 - alpha)
                lo <- tt$conf.int[1] * t_new
                hi <- tt$conf.int[2] * t_new
                p <- tt$p.value
            }
        } else {
            h1 <- hb[[1]]
            h2 <- hn[[1]]
            pb <- mean(h1)
            pn <- mean(h2)
            d <- t_new * (pn - pb)
            if (mode == "indep") {
                ci <- suppressWarnings(prop.test(c(xn, xb), c(length(h2), length(h1)),
                                                 correct = FALSE, conf.level = 1 - alpha))
                ci <- ci$conf.int * t_new
                lo <- ci[1]
                hi <- ci[2]
            } else {
                w <- welch_se(share_var(h1, pb), share_var(h2, pn), t_new)
                lo <- d - qtt(1 - alpha / 2, w$df) * w$se
                hi <- d + qtt(1 - alpha / 2, w$df) * w$se
            }
            p0 <- (xb + xn) / (length(h1) + length(h2))
            w0 <- welch_se(share_var(h1, p0, pb), share_var(h2, p0, pn), t_new)
            p <- if (w0$se > 0) ptt(d / w0$se, w0$df) else as.numeric(d == 0)
        }
        rows <- rbind(rows, data.frame(name = fn, q = if (self) "self" else "total", lo = lo,
                                       hi = hi, p = p, stringsAsFactors = FALSE))
    }
    rows$qv <- p.adjust(rows$p, "BH")
    out <- rbind(out, rows)
}
cat(sprintf("%s\t%s\t%.15g\t%.15g\t%.15g\t%.15g\n", out$name, out$q, out$lo, out$hi, out$p,
            out$qv), sep = "")
