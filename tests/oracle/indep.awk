# Checks one `stackscope report --format tsv` table against the independent
# parser's answers (tests/data/*/NAME.indep/). No R needed. Run with LC_ALL=C
# so that names compare as bytes:
#
#   LC_ALL=C awk -F '\t' -f indep.awk -v table=self|total|line \
#       -v expect=functions|stacks|none [-v interval=SECONDS] [-v mem=1] \
#       [-v times=0] EXPECTED OURS
#
# expect=functions  EXPECTED is functions.tsv (single-session files):
#                   self = self_samples * interval, total = total_samples *
#                   interval, mem.total = mem_total_MB_unrounded (mem=1).
# expect=stacks     EXPECTED is stacks.tsv (several sessions): time_s already
#                   uses each sample's own interval; self of f = time of the
#                   stacks whose leaf is f, total = time of the stacks that
#                   contain f. Labels must not contain ';'.
# expect=none       no values: EXPECTED is read but ignored.
#
# times=0 checks only names and mem.total (with mem=1), not times, pct, order.
# Always checked: the header, the field count, no duplicate names, the set of
# names (unless expect=none), pct = 100 * time / sum(self.time) and the row
# order: self: self desc, total desc, name (bytes); total: total desc, self
# desc, name; line: as R's by.line: file (the part before the first '#', as
# bytes), then line number.
# Prints one line per mismatch (at most 20 per table) and exits 1 if any.

function abs(x) { return x < 0 ? -x : x }
function close_enough(a, b, rel) {
    return abs(a - b) <= rel * (abs(b) > 1 ? abs(b) : 1)
}
function report(msg) {
    nbad++
    if (nbad <= 20)
        printf "  %s: %s\n", table, msg
}
# order check helpers: -1, 0, 1 comparisons
function cmpnum(a, b) { return a < b ? -1 : (a > b ? 1 : 0) }
function cmpstr(a, b) { a = a ""; b = b ""; return a < b ? -1 : (a > b ? 1 : 0) }
function line_file(key) { sub(/#.*$/, "", key); return key }
function line_num(key) {
    if (index(key, "#") == 0) return 0
    sub(/^.*#/, "", key)
    return key + 0
}
# > 0 when row i must not come before row j
function order_cmp(i, j,    c) {
    if (table == "self") {
        if ((c = cmpnum(oself[j], oself[i])) != 0) return c
        if ((c = cmpnum(ototal[j], ototal[i])) != 0) return c
        return cmpstr(oname[i], oname[j])
    }
    if (table == "total") {
        if ((c = cmpnum(ototal[j], ototal[i])) != 0) return c
        if ((c = cmpnum(oself[j], oself[i])) != 0) return c
        return cmpstr(oname[i], oname[j])
    }
    if ((c = cmpstr(line_file(oname[i]), line_file(oname[j]))) != 0) return c
    return cmpnum(line_num(oname[i]), line_num(oname[j]))
}

BEGIN {
    nbad = 0
    nexp = 0
    nrows = 0
    tol = 1e-9
    if (times == "") times = 1
    if (table != "self" && table != "total" && table != "line") {
        print "indep.awk: table must be self, total or line" > "/dev/stderr"
        exit 2
    }
}

# ---- the expected values (first file)
FILENAME == ARGV[1] && FNR == 1 { next }    # EXPECTED's header
FILENAME == ARGV[1] && expect == "functions" {
    if ($3 + 0 == 0) next               # never on any stack
    eself[$1] = $2 * interval
    etotal[$1] = $3 * interval
    if (mem) emem[$1] = $4 + 0
    if (!($1 in seen)) { seen[$1] = 1; nexp++ }
    next
}
FILENAME == ARGV[1] && expect == "stacks" {
    n = split($1, fr, ";")
    if (n == 0) next
    if (!(fr[n] in eself)) eself[fr[n]] = 0
    eself[fr[n]] += $3
    for (k in once) delete once[k]
    for (i = 1; i <= n; i++) {
        if (fr[i] in once) continue
        once[fr[i]] = 1
        if (!(fr[i] in etotal)) { etotal[fr[i]] = 0; nexp++; seen[fr[i]] = 1 }
        etotal[fr[i]] += $3
        if (!(fr[i] in eself)) eself[fr[i]] = 0
    }
    next
}
FILENAME == ARGV[1] { next }

# ---- our table (second file)
FNR == 1 {
    want = (table == "line" ? "location" : "name") \
        "\tself.time\tself.pct\ttotal.time\ttotal.pct" (mem ? "\tmem.total" : "")
    if ($0 != want) {
        report("header is '" $0 "', want '" want "'")
        exit 1
    }
    nf_want = mem ? 6 : 5
    next
}
{
    if (NF != nf_want) {
        report("line " FNR " has " NF " fields, want " nf_want ": " $0)
        next
    }
    nrows++
    oname[nrows] = $1
    oself[nrows] = $2 + 0
    oselfpct[nrows] = $3 + 0
    ototal[nrows] = $4 + 0
    ototalpct[nrows] = $5 + 0
    if (mem) omem[nrows] = $6 + 0
    if ($1 in orow)
        report("duplicate row '" $1 "' (lines " orow[$1] + 1 " and " FNR ")")
    else
        orow[$1] = nrows
}

END {
    if (nbad && nrows == 0) exit 1
    sum = 0
    for (i = 1; i <= nrows; i++) sum += oself[i]

    for (i = 1; i <= nrows; i++) {
        name = oname[i]
        # percentages agree with the times
        if (times && sum > 0) {
            if (!close_enough(oselfpct[i], 100 * oself[i] / sum, tol))
                report(sprintf("%s: self.pct %.15g, but 100*self.time/sum = %.15g",
                               name, oselfpct[i], 100 * oself[i] / sum))
            if (!close_enough(ototalpct[i], 100 * ototal[i] / sum, tol))
                report(sprintf("%s: total.pct %.15g, but 100*total.time/sum = %.15g",
                               name, ototalpct[i], 100 * ototal[i] / sum))
        }
        if (times && i > 1 && order_cmp(i - 1, i) > 0)
            report(sprintf("order: '%s' (row %d: self %.15g, total %.15g) before '%s' (row %d: self %.15g, total %.15g)",
                           oname[i - 1], i - 1, oself[i - 1], ototal[i - 1],
                           name, i, oself[i], ototal[i]))
        if (expect == "none")
            continue
        if (!(name in seen)) {
            report(sprintf("%s: in stackscope (self %.15g, total %.15g), not in the independent answer",
                           name, oself[i], ototal[i]))
            continue
        }
        if (times && !close_enough(oself[i], eself[name], tol))
            report(sprintf("%s: self.time stackscope %.15g, independent %.15g",
                           name, oself[i], eself[name]))
        if (times && !close_enough(ototal[i], etotal[name], tol))
            report(sprintf("%s: total.time stackscope %.15g, independent %.15g",
                           name, ototal[i], etotal[name]))
        if (mem && !close_enough(omem[i], emem[name], tol))
            report(sprintf("%s: mem.total stackscope %.15g, independent %.15g MB",
                           name, omem[i], emem[name]))
    }
    if (expect != "none")
        for (name in seen)
            if (!(name in orow))
                report(sprintf("%s: missing from stackscope (independent: self %.15g, total %.15g)",
                               name, eself[name], etotal[name]))
    if (nbad > 20)
        printf "  %s: ... %d more mismatches\n", table, nbad - 20
    exit (nbad > 0 ? 1 : 0)
}
