// bench_test.go - the Go benchmark of the verdict fixtures (../README.md):
// BenchmarkWork calls six functions of different costs; with PLANTED=1 in
// the environment, planted does 25% more work (5 rounds instead of 4).
// TestMain sets the CPU profiler's rate to 1000 Hz before `go test
// -cpuprofile` starts it (which then keeps it, with a warning): ten times
// the samples of its 100 Hz in the same time.
package verdictbench

import (
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
)

var sink int

//go:noinline
func hashLoop(n int) int {
	h := 0
	for i := 0; i < n; i++ {
		h = h*31 + i ^ (h >> 7)
	}
	return h
}

//go:noinline
func sortWork(n int) int {
	v := make([]int, n)
	for i := range v {
		v[i] = (i * 7919) % n
	}
	sort.Ints(v)
	return v[n/2]
}

//go:noinline
func stringWork(n int) int {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strconv.Itoa(i))
	}
	return b.Len()
}

//go:noinline
func mapWork(n int) int {
	m := make(map[int]int)
	for i := 0; i < n; i++ {
		m[i%997] += i
	}
	return len(m)
}

//go:noinline
func fib(k int) int {
	if k < 2 {
		return k
	}
	return fib(k-1) + fib(k-2)
}

//go:noinline
func planted(rounds int) int {
	s := 0
	for r := 0; r < rounds; r++ {
		for i := 0; i < 20000; i++ {
			s += i % 13
		}
	}
	return s
}

func TestMain(m *testing.M) {
	runtime.SetCPUProfileRate(1000)
	os.Exit(m.Run())
}

func BenchmarkWork(b *testing.B) {
	rounds := 4
	if os.Getenv("PLANTED") == "1" {
		rounds = 5
	}
	for i := 0; i < b.N; i++ {
		sink += hashLoop(30000) + sortWork(3000) + stringWork(2000) + mapWork(8000) +
			fib(16) + planted(rounds)
	}
}
