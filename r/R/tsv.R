# Reading the program's TSV.  Report TSV escapes a name's backslash as \\,
# tab, newline and CR as \t \n \r, other control characters and bytes that
# are not UTF-8 as \xNN (stackscope(1), CONTROL CHARACTERS); the v2 tables
# use the same escapes for \\ \t \n \r and \N for a missing value.  Nothing
# is quoted.

# Columns that hold text (names, labels, commands), never converted to numbers.
text_columns <- c("name", "location", "command", "stack", "key", "value",
                  "uri", "type", "flags", "measures", "side", "function",
                  "top", "file", "path", "unit", "str", "label", "caller",
                  "callee", "status", "class", "system_name", "filename")

# A report table: header row, then rows; numbers as doubles, text unescaped.
read_report <- function(path) {
  if (!file.exists(path) || file.size(path) == 0) return(NULL)
  df <- utils::read.delim(path, quote = "", comment.char = "",
                          na.strings = character(0), colClasses = "character",
                          check.names = FALSE, stringsAsFactors = FALSE,
                          encoding = "unknown")
  for (cl in names(df)) {
    if (cl %in% text_columns || grepl("verdict$", cl)) {
      df[[cl]] <- unescape(df[[cl]])
    } else {
      num <- suppressWarnings(as.numeric(df[[cl]]))
      if (!anyNA(num[!is.na(df[[cl]])])) df[[cl]] <- num
    }
  }
  df
}

# Undo the program's escapes: \\ \t \n \r and \xNN (a byte).
unescape <- function(x) {
  hit <- which(!is.na(x) & grepl("\\", x, fixed = TRUE))
  for (i in hit) x[i] <- unescape_one(x[i])
  x
}

unescape_one <- function(s) {
  b <- charToRaw(s)
  out <- raw(length(b))
  n <- 0L
  i <- 1L
  bs <- as.raw(0x5c)
  while (i <= length(b)) {
    if (b[i] == bs && i < length(b)) {
      c2 <- rawToChar(b[i + 1L])
      byte <- switch(c2, "\\" = bs, t = as.raw(9L), n = as.raw(10L),
                     r = as.raw(13L), NULL)
      if (!is.null(byte)) {
        n <- n + 1L
        out[n] <- byte
        i <- i + 2L
        next
      }
      if (c2 == "x" && i + 3L <= length(b)) {
        v <- strtoi(rawToChar(b[(i + 2L):(i + 3L)]), 16L)
        if (!is.na(v)) {
          n <- n + 1L
          out[n] <- as.raw(v)
          i <- i + 4L
          next
        }
      }
    }
    n <- n + 1L
    out[n] <- b[i]
    i <- i + 1L
  }
  rawToChar(out[seq_len(n)])
}
