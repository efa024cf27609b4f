# summary_rprof(): utils::summaryRprof()'s value, from the program's counts.
#
# The program gives each function's (or line's) self and total time and
# memory; R's presentation (its row order, which depends on the locale's
# collation, its rounding and its column layout) is applied here with R's own
# expressions, so that the value is summaryRprof()'s on every file it reads
# correctly.

summary_rprof <- function(filename = "Rprof.out", chunksize = 5000,
                          memory = c("none", "both", "tseries", "stats"),
                          lines = c("hide", "show", "both"),
                          index = 2, diff = TRUE, exclude = NULL,
                          basenames = 1) {
  files <- profile_files(filename, "filename")
  memory <- match.arg(memory)
  lines <- match.arg(lines)
  if (memory %in% c("tseries", "stats"))
    return(memory_summary(files, memory, index, diff, exclude))
  if (lines == "both" || (lines == "show" && !identical(as.numeric(basenames), 1)))
    return(summary_from_tables(files, memory, lines, basenames))
  tab <- report_tsv(c("--by", if (lines == "show") "line" else "self",
                      if (memory == "both") "--memory", files))
  keys <- if (lines == "show") tab$location else quote_names(tab$name)
  rprof_value(keys, tab$self.time, tab$total.time,
              if (memory == "both") tab$mem.total * 1048576,
              first_interval(files), lines)
}

# R's row names of functions: the name as Rprof writes it, in double quotes.
quote_names <- function(x) if (length(x)) paste0("\"", x, "\"") else character(0)

# R's sample.interval: the first header's interval, in seconds, read as
# summaryRprof() reads it; for other inputs the first source's.
first_interval <- function(files) {
  first <- tryCatch(suppressWarnings(readLines(files[1L], n = 1L, warn = FALSE)),
                    error = function(e) character(0))
  if (length(first) == 1L && grepl("sample.interval=", first, fixed = TRUE)) {
    iv <- suppressWarnings(as.numeric(strsplit(first, "=")[[1L]][2L]) / 1e6)
    if (is.finite(iv) && iv > 0) return(iv)
  }
  src <- report_tsv(c("--by", "sources", files))
  if (is.null(src) || !nrow(src)) NA_real_ else src$interval_us[1L] / 1e6
}

# summaryRprof()'s list from one row per key (R's row name): self and total
# times in seconds (or sample counts when counts = TRUE), memory in bytes
# (NULL: memory = "none"), the interval iv in seconds.  When every time is
# a whole number of intervals (one interval in the file) the counts are
# recovered and timed as R times them (count x interval), so that R's
# rounding sees R's doubles; otherwise (sessions with other intervals) the
# program's times, which are right, are used as they are.
rprof_value <- function(keys, self, total, mem, iv, lines, counts = FALSE) {
  if (!counts && is.finite(iv) && iv > 0 && length(keys)) {
    fc <- self / iv
    uc <- total / iv
    tol <- 1e-6 * pmax(1, abs(uc))
    if (all(abs(fc - round(fc)) <= tol) && all(abs(uc - round(uc)) <= tol)) {
      self <- round(fc)
      total <- round(uc)
      counts <- TRUE
    }
  }
  fnames <- sort(unique(keys))
  i <- match(fnames, keys)
  fcounts <- self[i]
  ucounts <- total[i]
  sample.interval <- iv
  if (counts) {
    firstnum <- fcounts * sample.interval
    uniquenum <- ucounts * sample.interval
    sampling.time <- sum(fcounts) * sample.interval
  } else {
    firstnum <- fcounts
    uniquenum <- ucounts
    sampling.time <- sum(fcounts)
  }
  # from here on, summaryRprof()'s own expressions
  index1 <- order(-firstnum, -uniquenum)
  index2 <- order(-uniquenum, -firstnum)
  if (lines == "show") {
    filename <- sub("#.*$", "", fnames)
    linenum <- rep.int(0, length(filename))
    hasline <- filename != fnames
    linenum[hasline] <- as.numeric(sub("^.*#", "", fnames[hasline]))
    index3 <- order(filename, linenum)
  }
  firstpct <- round(100 * firstnum / sum(firstnum), 2)
  uniquepct <- round(100 * uniquenum / sum(firstnum), 2)
  digits <- if (is.finite(sample.interval) && sample.interval >= 0.01) 2L else 3L
  firstnum <- round(firstnum, digits)
  uniquenum <- round(uniquenum, digits)
  rval <- data.frame(firstnum, firstpct, uniquenum, uniquepct)
  names(rval) <- c("self.time", "self.pct", "total.time", "total.pct")
  # an empty profile keeps automatic row names, as summaryRprof()'s NULL
  # names do
  if (length(fnames)) rownames(rval) <- fnames
  # summaryRprof()'s memory column is rowsum()'s one-column matrix
  if (!is.null(mem))
    rval$mem.total <- if (length(fnames))
      round(matrix(mem[i], dimnames = list(fnames, NULL)) / 1048576, 1) else numeric(0)
  by.self <- rval[index1, ]
  by.self <- by.self[by.self[, 1L] > 0, ]
  by.total <- rval[index2, c(3L, 4L, if (!is.null(mem)) 5L, 1L, 2L)]
  result <- list(by.self = by.self, by.total = by.total)
  if (lines == "show") result <- c(result, list(by.line = rval[index3, ]))
  c(result, sample.interval = sample.interval, sampling.time = sampling.time)
}

# lines = "both" (and lines = "show" with basenames other than 1): the keys
# of every frame, names and positions in the order R's line holds them,
# rebuilt from the v2 tables (each frame's own position precedes its name;
# a position after the outermost frame is the stack's last row).
summary_from_tables <- function(files, memory, lines, basenames) {
  tb <- read_tables(files)
  if (memory == "both" && !any(grepl("memory", tb$sources$flags, fixed = TRUE)))
    stop("profile does not contain memory information", call. = FALSE)
  if (!any(grepl("line", tb$sources$flags, fixed = TRUE)))
    stop("profile does not contain line information", call. = FALSE)
  tok <- stack_tokens(tb, lines, basenames)
  w <- stack_weights(tb, memory == "both")
  used <- tok$stack %in% which(w$count > 0)
  tok <- tok[used, , drop = FALSE]
  first <- !duplicated(tok$stack)
  self_key <- tok$token[first]
  self_stack <- tok$stack[first]
  uniq <- tok[!duplicated(tok[c("stack", "token")]), , drop = FALSE]
  keys <- sort(unique(uniq$token))
  add <- function(v, stack, key) {
    out <- numeric(length(keys))
    s <- rowsum(v[stack], key, reorder = FALSE)
    out[match(rownames(s), keys)] <- s[, 1L]
    out
  }
  counts <- w$single
  v <- if (counts) w$count else w$time
  self <- add(v, self_stack, self_key)
  total <- add(v, uniq$stack, uniq$token)
  mem <- if (memory == "both") add(w$memory, uniq$stack, uniq$token)
  rprof_value(keys, self, total, mem, tb$sources$interval_us[1L] / 1e6,
              lines, counts = counts)
}

# One row per token of every stack, in the order R writes them (innermost
# first): stack (id), token ("name" quoted, or FILE#LINE).  lines: "hide"
# (names), "show" (positions; a stack without one: <no location>) or
# "both".
stack_tokens <- function(tb, lines, basenames = 1) {
  st <- tb$stacks
  li <- st$location_id
  loc <- tb$locations
  fid <- loc$function_id[li]
  line <- loc$line[li]
  pos <- ifelse(!is.na(li) & !is.na(line) & line > 0,
                paste0(rprof_file_names(loc$file[li], basenames), "#", line),
                NA_character_)
  name <- ifelse(!is.na(fid), quote_names(tb$functions$name[fid]), NA_character_)
  if (lines == "hide") pos[] <- NA_character_
  if (lines == "show") name[] <- NA_character_
  token <- as.vector(rbind(pos, name))
  stack <- rep(st$stack_id, each = 2L)
  keep <- !is.na(token)
  out <- data.frame(stack = stack[keep], token = token[keep],
                    stringsAsFactors = FALSE)
  if (lines == "show") {
    # a stack with frames but no position is R's <no location>
    framed <- unique(st$stack_id[!is.na(li)])
    lost <- setdiff(framed, out$stack)
    if (length(lost))
      out <- rbind(out, data.frame(stack = lost, token = "<no location>",
                                   stringsAsFactors = FALSE))
    out <- out[order(out$stack), , drop = FALSE]
  }
  out
}

# summaryRprof()'s file names: the last `basenames` parts of each path.
rprof_file_names <- function(filenames, basenames) {
  if (!basenames) return(filenames)
  dirnames <- dirname(filenames)
  filenames <- basename(filenames)
  for (i in seq_len(basenames - 1)) {
    tail <- basename(dirnames)
    filenames <- ifelse(tail == ".", filenames, paste0(tail, "/", filenames))
    parent <- dirname(dirnames)
    dirnames <- ifelse(dirnames == parent, ".", parent)
  }
  filenames
}

# Per stack id: samples (count), time (each sample by its own source's
# interval), memory bytes; single: whether every sample's source has the
# first source's interval (then counts x interval are R's times).
stack_weights <- function(tb, memory) {
  s <- tb$samples
  n <- max(c(0L, tb$stacks$stack_id))
  iv <- tb$sources$interval_us / 1e6
  empty <- tb$stacks$stack_id[is.na(tb$stacks$location_id)]
  s <- s[!s$stack_id %in% empty, , drop = FALSE]
  sum_by <- function(v) {
    out <- numeric(n)
    if (nrow(s)) {
      r <- rowsum(v, s$stack_id, reorder = FALSE)
      out[as.integer(rownames(r))] <- r[, 1L]
    }
    out
  }
  list(count = sum_by(s$samples), time = sum_by(s$samples * iv[s$source_id]),
       memory = if (memory) sum_by(s$memory),
       single = all(iv[unique(s$source_id)] == iv[1L]))
}

# memory = "tseries" / "stats": summaryRprof()'s memory summaries from the
# samples' counters (sample_values), each session differenced on its own.
# The labels are the names of the frames (line profiling's positions, which
# R writes into them as file numbers, are left out).
memory_summary <- function(files, memory, aggregate, diff, exclude) {
  tb <- read_tables(files)
  if (!any(grepl("memory", tb$sources$flags, fixed = TRUE)))
    stop("profile does not contain memory information", call. = FALSE)
  s <- tb$samples
  tok <- stack_tokens(tb, "hide")
  if (length(exclude)) {
    bare <- sub("^\"(.*)\"$", "\\1", tok$token)
    tok <- tok[!(tok$token %in% exclude | bare %in% exclude), , drop = FALSE]
  }
  framed <- unique(tb$stacks$stack_id[!is.na(tb$stacks$location_id)])
  s <- s[s$stack_id %in% framed, , drop = FALSE]
  if (!nrow(s)) stop("no events were recorded", call. = FALSE)
  nstacks <- max(c(0L, tb$stacks$stack_id))
  chunk <- split(tok$token, factor(tok$stack, levels = seq_len(nstacks)))[s$stack_id]
  iv <- tb$sources$interval_us / 1e6
  sample.interval <- iv[1L]
  memcounts <- as.data.frame(cbind(s$small_v * 8, s$big_v * 8, s$nodes, s$dup_count))
  names(memcounts) <- c("vsize.small", "vsize.large", "nodes", "duplications")
  # from here on, Rprof_memory_summary()'s expressions
  outer_inner <- function(k) {
    if (k > 0) function(line) paste(rev(line)[1L:min(k, length(line))], collapse = ":")
    else function(line) paste(line[1L:min(-k, length(line))], collapse = ":")
  }
  if (memory == "tseries") {
    label <- aggregate
    labels <- lapply(label, function(k) {
      if (k == 1) vapply(chunk, function(line) if (length(line)) line[[1L]] else "", "")
      else vapply(chunk, outer_inner(k), "")
    })
    rownames(memcounts) <- if (all(iv[unique(s$source_id)] == sample.interval))
      (1L:nrow(memcounts)) * sample.interval else cumsum(iv[s$source_id])
    names(labels) <- paste0("stack:", label)
    memcounts <- cbind(memcounts, labels)
  } else {
    index <- unname(vapply(chunk, outer_inner(aggregate), ""))
  }
  if (diff) {
    # each session differenced on its own; its first row keeps its counters
    later <- which(c(FALSE, s$source_id[-1L] == s$source_id[-nrow(s)]))
    if (length(later))
      memcounts[later, 1L:3L] <- pmax(0L, as.matrix(memcounts[later, 1L:3L]) -
                                        as.matrix(memcounts[later - 1L, 1L:3L]))
  }
  if (memory == "tseries") return(memcounts)
  by(memcounts, index, function(these) with(these, round(c(vsize.small = mean(vsize.small),
      max.vsize.small = max(vsize.small), vsize.large = mean(vsize.large),
      max.vsize.large = max(vsize.large), nodes = mean(nodes),
      max.nodes = max(nodes), duplications = mean(duplications),
      tot.duplications = sum(duplications), samples = nrow(these)))))
}

# The columns with() reads in memory_summary()'s by().
utils::globalVariables(c("vsize.small", "vsize.large", "nodes", "duplications"))
