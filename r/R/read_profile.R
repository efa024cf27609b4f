# read_profile(): the v2 tables `stackscope convert --to tables` writes, as
# data frames (stackscope(1), FORMATS: ids 1-based, row k of a table has id
# k; depth 1 is the innermost frame; \N is NA).

read_profile <- function(x, sample_locations = FALSE) {
  read_tables(profile_files(x), sample_locations)
}

# Each table's columns and their types (scan()'s `what`).
table_schemas <- list(
  meta = list(key = "", value = "", source_id = 0L),
  sources = list(source_id = 0L, type = "", uri = "", session = 0L,
                 header_line = 0L, timestamp = 0, interval_us = 0, flags = ""),
  value_types = list(type = "", unit = ""),
  samples = list(sample_id = 0L, source_id = 0L, stack_id = 0L),
  stacks = list(stack_id = 0L, depth = 0L, location_id = 0L),
  sample_locations = list(sample_id = 0L, depth = 0L, location_id = 0L),
  locations = list(location_id = 0L, function_id = 0L, file = "", line = 0L),
  functions = list(function_id = 0L, name = "", system_name = "",
                   filename = "", start_line = 0L, class = ""),
  labels = list(sample_id = 0L, key = "", str = "", num = 0, unit = ""),
  aggregates = list(source_id = 0L, location_id = 0L, self = 0, total = 0),
  call_edges = list(source_id = 0L, caller_location_id = 0L,
                    callee_location_id = 0L, count = 0)
)

read_tables <- function(files, sample_locations = FALSE) {
  dir <- tempfile("stackscope-tables-")
  on.exit(unlink(dir, recursive = TRUE), add = TRUE)
  out <- run_stackscope(c("convert", "--to", "tables", "-o", dir, files))
  unlink(out)
  wanted <- setdiff(names(table_schemas),
                    c("samples", if (!sample_locations) "sample_locations"))
  tb <- list()
  for (t in wanted) {
    path <- file.path(dir, paste0(t, ".tsv"))
    if (file.exists(path)) tb[[t]] <- read_table_file(path, table_schemas[[t]])
  }
  tb$samples <- read_samples(dir, tb$value_types$type, tb$sources)
  tb[c(intersect(names(table_schemas), names(tb)))]
}

# One table: scan() when its header is the expected one (fast), else
# read.delim (a newer program's extra columns).
read_table_file <- function(path, schema) {
  header <- strsplit(readLines(path, n = 1L, warn = FALSE), "\t", fixed = TRUE)[[1L]]
  if (identical(header, names(schema))) {
    cols <- scan(path, what = schema, sep = "\t", quote = "", skip = 1L,
                 na.strings = "\\N", quiet = TRUE, comment.char = "",
                 allowEscapes = FALSE, strip.white = FALSE, fill = FALSE)
    df <- as.data.frame(cols, stringsAsFactors = FALSE, optional = TRUE)
    names(df) <- names(schema)
  } else {
    df <- utils::read.delim(path, quote = "", comment.char = "",
                            na.strings = "\\N", check.names = FALSE,
                            stringsAsFactors = FALSE)
  }
  for (cl in names(df)) if (is.character(df[[cl]])) df[[cl]] <- unescape(df[[cl]])
  df
}

# samples.tsv with one column per value type (sample_values.tsv holds every
# value of every sample, sample by sample, in value_types' order) and the
# measures: time (count x the source's interval, seconds) and, for memory
# profiling, memory and released bytes (stackscope(1), MEASURES).
read_samples <- function(dir, types, sources) {
  s <- read_table_file(file.path(dir, "samples.tsv"), table_schemas$samples)
  n <- nrow(s)
  k <- length(types)
  path <- file.path(dir, "sample_values.tsv")
  sv <- scan(path, what = list(0L, NULL, 0), sep = "\t", quote = "", skip = 1L,
             quiet = TRUE, comment.char = "", na.strings = "\\N")
  head_types <- vapply(strsplit(readLines(path, n = k + 1L, warn = FALSE)[-1L],
                                "\t", fixed = TRUE), `[`, "", 2L)
  if (length(sv[[1L]]) != n * k || !identical(head_types, types[seq_len(min(n, 1L) * k)]) ||
      !identical(sv[[1L]], rep(seq_len(n), each = k)))
    stop("stackscope: ", path, ": not one value per sample and value type",
         call. = FALSE)
  vals <- matrix(sv[[3L]], nrow = k)
  for (i in seq_len(k)) s[[unescape(types[i])]] <- vals[i, ]
  iv <- sources$interval_us[s$source_id] / 1e6
  s$time <- if (is.null(s$samples)) rep(NA_real_, n) else s$samples * iv
  mem_src <- which(grepl("memory", sources$flags, fixed = TRUE))
  if (length(mem_src) && all(c("small_v", "big_v", "nodes") %in% names(s))) {
    s$memory <- s$released <- numeric(n)
    for (src in mem_src) {
      i <- which(s$source_id == src)
      if (length(i) < 2L) next
      d <- function(v) diff(v[i])
      ds <- d(s$small_v)
      db <- d(s$big_v)
      dn <- d(s$nodes)
      s$memory[i] <- c(0, 8 * pmax(ds, 0) + 8 * pmax(db, 0) + pmax(dn, 0))
      s$released[i] <- c(0, pmax(0, -8 * (ds + db)))
    }
  }
  s
}
