# Independent view of an Rprof file's lines, for tests/formats.sh (no
# stackscope code involved).  Lines end in LF, CRLF or CR.
#
#   awk -v mode=norm    -v cut=C -f rprof_lines.awk FILE FILE >NORMALISED
#   awk -v mode=samples -v cut=C -f rprof_lines.awk FILE FILE >SAMPLES
#   awk -v mode=split   -v cut=C -v prefix=P -f rprof_lines.awk FILE FILE
#
# The file is named twice (two passes: the first collects each session's
# `#File N: path` declarations, wherever they are).  cut=1 says the file does
# not end with a line end: its last line is then an incomplete sample that R
# was killed while writing, and is left out unless it is a header.  Blank
# lines are left out (R never writes them), and so is the line "#File : "
# that the R profile package writes when there are no files.
#
# norm     the remaining lines, each ending in LF: the input as stackscope is
#          documented to read it, for R's summaryRprof;
# split    the same, one file per session (header included): P1, P2, ...
# samples  one line per header ("H header") and per sample: the memory
#          prefix, then the tokens with every position `N#L` written as
#          `<path>#L` (`<NA>#L` for an undeclared N), each token followed
#          by one space.  Two files have the same samples in the same order
#          with the same names, positions and memory values exactly when
#          this output is equal (file numbering and #File placement may
#          differ).
BEGIN {
    RS = "\r\n|\r|\n"
    hdr = "^(memory profiling: )?(GC profiling: )?(line profiling: )?sample\\.interval=[0-9]+$"
}
FNR == 1 { pass++; sess = 0 }
pass == 1 {
    n1 = FNR
    if ($0 ~ hdr) sess++
    else if ($0 ~ /^#File [0-9]+: /) {
        k = $0
        sub(/^#File /, "", k)
        num = k
        sub(/:.*/, "", num)
        path = substr(k, length(num) + 3)
        files[sess, num + 0] = path
    }
    next
}
{
    if ($0 == "") next
    if ($0 ~ /^#File : *$/) next # the R profile package's "no files" line
    if (cut && FNR == n1 && $0 !~ hdr) next
    if ($0 ~ hdr) sess++
    if (mode == "norm") { print; next }
    if (mode == "split") { print > (prefix sess); next }
    if ($0 ~ hdr) { print "H " $0; next }
    if ($0 ~ /^#File /) next
    line = $0
    pre = ""
    if (match(line, /^:[0-9]+:[0-9]+:[0-9]+:[0-9]+:/)) {
        pre = substr(line, 1, RLENGTH)
        line = substr(line, RLENGTH + 1)
    }
    if (line != "" && line !~ / $/) line = line " "
    out = ""
    rest = line
    while (match(rest, /(^|" )[0-9]+#[0-9]+ /)) {
        out = out substr(rest, 1, RSTART - 1)
        tok = substr(rest, RSTART, RLENGTH - 1)
        rest = substr(rest, RSTART + RLENGTH)
        if (substr(tok, 1, 2) == "\" ") {
            out = out "\" "
            tok = substr(tok, 3)
        }
        split(tok, a, "#")
        f = ((sess, a[1] + 0) in files) ? files[sess, a[1] + 0] : "NA"
        out = out "<" f ">#" a[2] " "
    }
    print pre out rest
}
