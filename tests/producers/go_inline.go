// go_inline.go - writes a real Go CPU profile whose hot functions are
// inlined (pprof's "(inline)" and "(partial-inline)" marks), for
// stackscope's tests of inline frames, addresses and mappings (issue 34).
//
//	go run go_inline.go FILE     writes FILE (gzip-compressed profile.proto)
//
// mix and step are small enough for Go's inliner: inlined into work, their
// samples' locations hold several lines.  step is also called through a
// function value from indirect (not inlined there): partly inlined.
package main

import (
	"os"
	"runtime/pprof"
	"time"
)

func step(x uint64) uint64 { return x*6364136223846793005 + 1442695040888963407 }

func mix(x uint64) uint64 { return step(x) ^ (x >> 17) }

//go:noinline
func work(d time.Duration) uint64 {
	var x uint64 = 1
	for t := time.Now(); time.Since(t) < d; {
		for i := 0; i < 200000; i++ {
			x = mix(x)
		}
	}
	return x
}

//go:noinline
func indirect(d time.Duration, f func(uint64) uint64) uint64 {
	var x uint64 = 3
	for t := time.Now(); time.Since(t) < d; {
		for i := 0; i < 200000; i++ {
			x = f(x)
		}
	}
	return x
}

var sink uint64

func main() {
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		panic(err)
	}
	sink = work(600*time.Millisecond) + indirect(300*time.Millisecond, step)
	pprof.StopCPUProfile()
	f.Close()
}
