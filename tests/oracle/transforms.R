## transforms.R -- independent answers for stackscope's transforms.
##
## Usage: Rscript tests/oracle/transforms.R FILE OUTDIR SCRIPT...
##
## Reads the raw Rprof FILE with its own tokenizer (base R only: no
## summaryRprof, no code shared with the C program), applies the transform
## commands of each SCRIPT (stackscope(1), TRANSFORMS) to the samples' names,
## and writes for the i-th script
##   OUTDIR/i/folded.txt   "root;...;leaf COUNT" per distinct non-empty stack
##   OUTDIR/i/effects.tsv  step samples_in samples_out samples_emptied frames_removed
##                         (one row per command, in order)
##   OUTDIR/i/runs.tsv     name level runs samples mean median max: the run
##                         lengths of the transformed timeline (see below)
##
## Reading: lines end at LF, CRLF or CR; a header line
## "[memory profiling: ][GC profiling: ][line profiling: ]sample.interval=N"
## starts a session with interval N microseconds; "#File N: path" lines and
## blank lines are skipped; a final line without a line end is dropped (a
## cut-off sample).  Every other line is one sample, in time order: the memory
## prefix ":a:b:c:d:" is removed and the rest is a sequence of tokens each
## followed by one space: quoted names (never escaped: a name ends at the
## first '"' followed by a space and then the end of the line, another '"' or
## a F#L token) and F#L positions, which are dropped.  A sample may have no
## names (a memory line with only the prefix): it stays in the timeline.
##
## Transforms work on each sample's names, root first:
##   drop-samples A:B / keep-samples A:B   1-based inclusive sample numbers of
##       the current timeline (negative: from the end, open ends allowed,
##       a single number N is N:N), or times with unit s/ms/us: sample k
##       starts at the summed intervals of the samples before it, and
##       A <= start < B selects it (negative: from the total time).
##   trim-base N           drop the N outermost names
##   trim-base auto[=S]    N = the number of root levels 1..d at each of which
##                         one name is in at least S (default 1) of the
##                         samples with names
##   trim-to F             cut the names outside F's outermost occurrence
##   focus F               keep the samples with F, then trim-to F
##   drop F                remove the samples with F
##   merge F               remove every F
##   prune F               cut the names inside F's outermost occurrence
##   replace F1 .. Fk => N each run F1..Fk (root to leaf, leftmost first, no
##                         overlaps) becomes N
##   collapse-recursion F  consecutive equal names matching F become one
##   class F => C          nothing to do on stacks
## Runs (stackscope(1), RUN LENGTHS) of the final timeline: a run at level k is
## a maximal stretch of consecutive kept samples with the same names at levels
## 1..k; a sample with fewer than k names is in none and ends it; a sample
## with no names, a new session and a gap (samples removed between two kept
## ones: drop, focus, drop-samples, keep-samples) end every run.  Per (name,
## level) the number of runs, their summed length, mean, median (R's) and max;
## level "all" pools a name's levels.
## F is a bare word or "quoted" name (equality) or a /regex/ (grepl, extended,
## unanchored).  samples_emptied counts samples that had names before the step
## and none after; frames_removed sums the names removed from the samples
## that stay in the timeline.

args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 3) {
  cat("usage: Rscript transforms.R FILE OUTDIR SCRIPT...\n", file = stderr())
  quit(status = 2)
}
path <- args[1]

## ---- read the samples --------------------------------------------------------------
size <- file.info(path)$size
raw <- if (size > 0) readBin(path, "raw", size) else raw(0)
last_open <- length(raw) > 0 && !(raw[length(raw)] %in% as.raw(c(10, 13)))
cr <- which(raw == as.raw(13))
if (length(cr)) {
  crlf <- cr[cr < length(raw) & raw[pmin(cr + 1L, length(raw))] == as.raw(10)]
  raw[setdiff(cr, crlf)] <- as.raw(10)
  if (length(crlf)) raw <- raw[-crlf]
}
lines <- if (length(raw)) strsplit(rawToChar(raw), "\n", fixed = TRUE, useBytes = TRUE)[[1]] else character()
if (last_open && length(lines)) lines <- lines[-length(lines)]

hdr <- "^(memory profiling: )?(GC profiling: )?(line profiling: )?sample\\.interval=([0-9]+)$"
is_header <- grepl(hdr, lines, perl = TRUE, useBytes = TRUE)
session <- cumsum(is_header)
ivals <- as.numeric(sub(hdr, "\\4", lines[is_header], perl = TRUE, useBytes = TRUE))
is_sample <- !is_header & session > 0 & nzchar(lines) &
  !grepl("^#File [0-9]+:", lines, perl = TRUE, useBytes = TRUE)
body <- sub("^:[0-9]+:[0-9]+:[0-9]+:[0-9]+:", "", lines[is_sample], perl = TRUE, useBytes = TRUE)
interval <- ivals[session[is_sample]] # microseconds, per sample
sess <- session[is_sample]

ubody <- unique(body)
## File paths per session ("#File N: path" lines), for positions' basenames.
files <- list()
for (k in which(grepl("^#File [0-9]+:", lines, perl = TRUE, useBytes = TRUE))) {
  key <- paste(session[k], sub("^#File ([0-9]+):.*$", "\\1", lines[k], perl = TRUE, useBytes = TRUE))
  files[[key]] <- sub("^#File [0-9]+: ?", "", lines[k], perl = TRUE, useBytes = TRUE)
}
tok_re <- paste0('"(.*?)"(?=$| $| "| [0-9]+#[0-9]+(?: |$))', "|[0-9]+#[0-9]+(?= |$)")
## A frame is "name\001pos": pos is R's by-line key "basename#line" of the
## F#L token just before the name (its own current line), "" without one.
## The position after the outermost name (where it was called from) is the
## stack's tail.
usess <- sess[match(ubody, body)]
parsed <- lapply(seq_along(ubody), function(u) {
  t <- regmatches(ubody[u], gregexpr(tok_re, ubody[u], perl = TRUE, useBytes = TRUE))[[1]]
  out <- character(); pend <- ""
  for (x in t) {
    if (startsWith(x, '"')) {
      out <- c(out, paste0(sub('(?s)^"(.*)"$', "\\1", x, perl = TRUE, useBytes = TRUE), "\001", pend))
      pend <- ""
    } else {
      fl <- strsplit(x, "#", fixed = TRUE)[[1]]
      path <- files[[paste(usess[u], fl[1])]]
      pend <- paste0(if (is.null(path)) "NA" else basename(path), "#", fl[2])
    }
  }
  list(stack = rev(out), tail = if (length(out)) pend else "")
})
ustacks <- lapply(parsed, `[[`, "stack")
utails <- vapply(parsed, `[[`, "", "tail")
nm <- function(x) sub("\001.*$", "", x, useBytes = TRUE)
pos <- function(x) sub("^.*\001", "", x, useBytes = TRUE)
## the timeline: one stack (root first) per sample, kept as indexes into `stacks`
sid <- match(body, ubody)

## ---- the script ------------------------------------------------------------------------
## Tokens: bare words, "quoted" (\" and \\ escapes), /regex/ (\/ is a slash).
tokenize <- function(line) {
  ch <- strsplit(line, "", useBytes = TRUE)[[1]]
  out <- list()
  i <- 1L
  n <- length(ch)
  while (i <= n) {
    c <- ch[i]
    if (c %in% c(" ", "\t", "\r")) { i <- i + 1L; next }
    if (c == "#") break
    if (c == '"') {
      s <- character(); i <- i + 1L
      while (ch[i] != '"') {
        if (ch[i] == "\\") i <- i + 1L
        s <- c(s, ch[i]); i <- i + 1L
      }
      out[[length(out) + 1]] <- list(kind = "name", text = paste(s, collapse = ""))
      i <- i + 1L
    } else if (c == "/") {
      s <- character(); i <- i + 1L
      while (ch[i] != "/") {
        if (ch[i] == "\\" && ch[i + 1L] == "/") i <- i + 1L
        else if (ch[i] == "\\") { s <- c(s, ch[i]); i <- i + 1L }
        s <- c(s, ch[i]); i <- i + 1L
      }
      out[[length(out) + 1]] <- list(kind = "regex", text = paste(s, collapse = ""))
      i <- i + 1L
    } else {
      s <- character()
      while (i <= n && !(ch[i] %in% c(" ", "\t", "\r"))) { s <- c(s, ch[i]); i <- i + 1L }
      out[[length(out) + 1]] <- list(kind = "word", text = paste(s, collapse = ""))
    }
  }
  out
}

matcher <- function(tok) {
  if (tok$kind == "regex") {
    re <- tok$text
    function(x) grepl(re, nm(x), useBytes = TRUE)
  } else {
    name <- tok$text
    function(x) nm(x) == name
  }
}

## time string -> microseconds
time_us <- function(s) {
  u <- sub("^-?[0-9.]+", "", s)
  v <- as.numeric(sub("(s|ms|us)$", "", s))
  v * c(s = 1e6, ms = 1e3, us = 1)[[u]]
}

## timeline positions (1-based) selected by a range
select_range <- function(spec, n) {
  if (!grepl(":", spec, fixed = TRUE)) spec <- paste0(spec, ":", spec)
  ends <- strsplit(paste0(spec, " "), ":", fixed = TRUE)[[1]]
  a <- trimws(ends[1]); b <- trimws(ends[2])
  if (grepl("s$", a) || grepl("s$", b)) {
    iv <- interval[keep]
    start <- c(0, cumsum(iv))[seq_len(n)]
    total <- sum(iv)
    ta <- if (nzchar(a)) time_us(a) else -Inf
    tb <- if (nzchar(b)) time_us(b) else Inf
    if (ta < 0 && is.finite(ta)) ta <- total + ta
    if (tb < 0) tb <- total + tb
    return(which(start >= ta - 1e-6 & start < tb - 1e-6))
  }
  x <- if (nzchar(a)) as.numeric(a) else 1
  y <- if (nzchar(b)) as.numeric(b) else n
  if (x < 0) x <- n + 1 + x
  if (y < 0) y <- n + 1 + y
  x <- max(x, 1); y <- min(y, n)
  if (x > y) integer() else seq(x, y)
}

## scaffold depth of the current timeline; unless `all`, it stops above the
## first level where some sample's frame has a position (user code)
scaffold <- function(share, all) {
  st <- stacks[sid[keep]]
  len <- lengths(st)
  n1 <- sum(len > 0)
  if (n1 == 0) return(0L)
  need <- share * n1
  need <- need - need * 1e-12
  d <- 0L
  repeat {
    k <- d + 1L
    at <- vapply(st[len >= k], function(s) s[k], "")
    if (!length(at) || max(table(nm(at))) < need) break
    if (!all && any(nzchar(pos(at)))) break
    d <- k
  }
  d
}

outermost <- function(s, m) {
  w <- which(m(s))
  if (length(w)) w[1] else 0L
}

rewrite <- function(fun) {
  stacks <<- lapply(stacks, fun)
  tails[lengths(stacks) == 0] <<- ""
}

## R's evaluation machinery, as documented for r-simplify in stackscope(1)
machinery <- c("eval", "evalq", "eval.parent", "local", "withVisible", "withAutoprint",
               "source", "sys.function", "do.call", "Recall", "force", "tryCatch",
               "tryCatchList", "tryCatchOne", "doTryCatch", "try", "withCallingHandlers",
               "suppressWarnings", "suppressMessages", "withRestarts", "withOneRestart",
               "doWithOneRestart", "compiler:::tryCmpfun", "tryCmpfun", "cmpfun",
               "compiler::cmpfun", "compiler:::cmpfun")

## The run lengths of the final timeline: `final` the kept samples' names
## (root first), `kept` their original sample numbers.
write_runs <- function(final, kept, path) {
  nk <- length(kept)
  len <- lengths(final)
  ## a segment: kept samples with no gap or session change between them
  seg <- if (nk) cumsum(c(TRUE, diff(kept) != 1L | diff(sess[kept]) != 0L)) else integer()
  prev_id <- ifelse(len > 0, seg, NA_integer_)
  rn <- character(); rl <- integer(); rlen <- integer()
  for (k in seq_len(max(c(0L, len)))) {
    nm <- vapply(final, function(s) if (length(s) >= k) s[k] else NA_character_, "")
    ok <- !is.na(nm)
    key <- paste(prev_id, nm, sep = "\001")
    id <- rep(NA_integer_, nk)
    id[ok] <- match(key[ok], unique(key[ok]))
    before <- c(NA_integer_, id[-nk])
    starts <- ok & (is.na(before) | before != id)
    run_of <- cumsum(starts)
    rlen <- c(rlen, tabulate(run_of[ok], max(0L, run_of)))
    rn <- c(rn, nm[starts])
    rl <- c(rl, rep(k, sum(starts)))
    prev_id <- id
  }
  num <- function(x) sprintf("%.15g", as.numeric(x))
  row <- function(v) c(length(v), sum(v), mean(v), median(v), max(v))
  out <- character()
  for (key in unique(paste(rl, rn, sep = "\001"))) {
    sel <- paste(rl, rn, sep = "\001") == key
    out <- c(out, paste(c(rn[sel][1], num(rl[sel][1]), num(row(rlen[sel]))), collapse = "\t"))
  }
  for (name in unique(rn))
    out <- c(out, paste(c(name, "all", num(row(rlen[rn == name]))), collapse = "\t"))
  con <- file(path, "wb")
  writeLines(c("name\tlevel\truns\tsamples\tmean\tmedian\tmax", out), con, useBytes = TRUE)
  close(con)
}

run_script <- function(script_path, outdir) {
  dir.create(outdir, showWarnings = FALSE, recursive = TRUE)
  stacks <<- ustacks
  tails <<- utails
  keep <<- seq_along(sid)
  script <- readLines(script_path, warn = FALSE)
  effects <- NULL
  step <- 0L
  for (line in script) {
    tk <- tokenize(line)
    if (!length(tk)) next
    step <- step + 1L
    cmd <- tk[[1]]$text
    before_len <- lengths(stacks)[sid]
    n_in <- length(keep)
    if (cmd %in% c("drop-samples", "keep-samples")) {
      sel <- select_range(tk[[2]]$text, length(keep))
      keep <<- if (cmd == "keep-samples") keep[sel] else if (length(sel)) keep[-sel] else keep
    } else if (cmd == "trim-base") {
      arg <- tk[[2]]$text
      all <- endsWith(arg, ",all")
      arg <- sub(",all$", "", arg)
      nt <- if (startsWith(arg, "auto")) {
        scaffold(if (arg == "auto") 1 else as.numeric(sub("^auto=", "", arg)), all)
      } else as.integer(arg)
      if (nt > 0) tails <<- rep("", length(tails))
      rewrite(function(s) if (length(s) > nt) s[seq_len(length(s) - nt) + nt] else character())
    } else if (cmd == "trim-to" || cmd == "focus") {
      m <- matcher(tk[[2]])
      if (cmd == "focus") {
        has <- vapply(stacks, function(s) any(m(s)), TRUE)
        keep <<- keep[has[sid[keep]]]
      }
      cut <- vapply(stacks, function(s) outermost(s, m) > 1L, TRUE)
      tails[cut] <<- ""
      rewrite(function(s) { j <- outermost(s, m); if (j) s[j:length(s)] else s })
    } else if (cmd == "r-simplify") {
      ## machinery frames go unless innermost or with a position
      rewrite(function(s) {
        n <- length(s)
        s[!(nm(s) %in% machinery & seq_len(n) < n & !nzchar(pos(s)))]
      })
    } else if (cmd == "name-anonymous") {
      m <- if (length(tk) > 1) matcher(tk[[2]]) else function(x) nm(x) %in% c("FUN", "<Anonymous>")
      renamed <- stacks
      for (u in seq_along(renamed)) {
        s <- renamed[[u]]
        for (i in which(m(s))) {
          outer <- which(nzchar(pos(s[seq_len(i - 1L)])))
          at <- if (length(outer)) pos(s[max(outer)]) else tails[u]
          if (nzchar(at)) s[i] <- paste0(nm(s[i]), "@", at, "\001", pos(s[i]))
        }
        renamed[[u]] <- s
      }
      stacks <<- renamed
    } else if (cmd == "drop") {
      m <- matcher(tk[[2]])
      has <- vapply(stacks, function(s) any(m(s)), TRUE)
      keep <<- keep[!has[sid[keep]]]
    } else if (cmd == "merge") {
      m <- matcher(tk[[2]])
      rewrite(function(s) s[!m(s)])
    } else if (cmd == "prune") {
      m <- matcher(tk[[2]])
      rewrite(function(s) { j <- outermost(s, m); if (j) s[seq_len(j)] else s })
    } else if (cmd == "collapse-recursion") {
      m <- matcher(tk[[2]])
      rewrite(function(s) {
        n <- length(s)
        if (n < 2) return(s)
        ## drop s[i] (outer) when s[i+1] (its callee) is the same matching name
        dup <- c(nm(s[-n]) == nm(s[-1]) & m(s[-n]), FALSE)
        s[!dup]
      })
    } else if (cmd == "replace") {
      arrow <- which(vapply(tk, function(t) t$kind == "word" && t$text == "=>", TRUE))
      pats <- lapply(tk[2:(arrow - 1)], matcher)
      newname <- tk[[arrow + 1]]$text
      k <- length(pats)
      rewrite(function(s) {
        out <- character(); i <- 1L; n <- length(s)
        while (i <= n) {
          hit <- i + k - 1L <= n
          if (hit) for (p in seq_len(k)) if (!pats[[p]](s[i + p - 1L])) { hit <- FALSE; break }
          if (hit) {
            out <- c(out, paste0(newname, "\001", pos(s[i + k - 1L])))
            i <- i + k
          } else { out <- c(out, s[i]); i <- i + 1L }
        }
        out
      })
    } else if (cmd == "class") {
      ## classes do not change stacks
    } else {
      stop("unknown command: ", cmd)
    }
    after_len <- lengths(stacks)[sid]
    emptied <- sum(before_len[keep] > 0 & after_len[keep] == 0)
    removed <- sum(before_len[keep] - after_len[keep])
    effects <- rbind(effects, data.frame(step = step, samples_in = n_in, samples_out = length(keep),
                                         samples_emptied = emptied, frames_removed = removed))
  }

  ## ---- output --------------------------------------------------------------------------------
  final <- lapply(stacks[sid[keep]], nm)
  txt <- vapply(final, function(s) paste(s, collapse = ";"), "")
  txt <- txt[lengths(final) > 0]
  counts <- table(txt)
  con <- file(file.path(outdir, "folded.txt"), "wb")
  if (length(counts)) writeLines(paste(names(counts), as.integer(counts)), con, useBytes = TRUE)
  close(con)
  write_runs(final, keep, file.path(outdir, "runs.tsv"))
  if (is.null(effects))
    effects <- data.frame(step = integer(), samples_in = integer(), samples_out = integer(),
                          samples_emptied = integer(), frames_removed = integer())
  write.table(effects, file.path(outdir, "effects.tsv"), sep = "\t", quote = FALSE, row.names = FALSE)
}

for (i in seq_along(args)[-(1:2)])
  run_script(args[i], file.path(args[2], i - 2L))
