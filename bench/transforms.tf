# A 10-step list for bench/transforms.sh (names of bench/data's profiles).
drop-samples 1:1000
keep-samples -900000:
trim-base auto
merge /^(eval|withVisible)$/
collapse-recursion /./
replace lapply FUN => "lapply/FUN"
prune /^(paste|sample)$/
drop /^<GC>$/
class /::/ => namespaced
keep-samples 0.5s:
