// go_cpu_heap.go - writes a real Go CPU profile and a real Go heap profile
// (runtime/pprof), for stackscope's tests of mixed kinds (issue 17, item 6).
//
//	go run go_cpu_heap.go DIR    writes DIR/cpu.pb.gz and DIR/heap.pb.gz
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"time"
)

var sink [][]byte

//go:noinline
func spin(d time.Duration) int {
	n := 0
	for t := time.Now(); time.Since(t) < d; {
		for i := 0; i < 100000; i++ {
			n += i % 7
		}
	}
	return n
}

//go:noinline
func hash(d time.Duration) int { return spin(d) }

//go:noinline
func allocSmall(k int) {
	for i := 0; i < k; i++ {
		sink = append(sink, make([]byte, 512))
	}
}

//go:noinline
func allocBig(k int) {
	for i := 0; i < k; i++ {
		sink = append(sink, make([]byte, 64<<10))
	}
}

func main() {
	dir := os.Args[1]
	runtime.MemProfileRate = 4096
	cpu, err := os.Create(filepath.Join(dir, "cpu.pb.gz"))
	if err != nil {
		panic(err)
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		panic(err)
	}
	n := spin(300*time.Millisecond) + hash(200*time.Millisecond)
	pprof.StopCPUProfile()
	cpu.Close()
	allocSmall(2000)
	allocBig(40)
	sink = sink[:len(sink)/2] // half of it is garbage: alloc and inuse differ
	runtime.GC()
	heap, err := os.Create(filepath.Join(dir, "heap.pb.gz"))
	if err != nil {
		panic(err)
	}
	if err := pprof.WriteHeapProfile(heap); err != nil {
		panic(err)
	}
	heap.Close()
	fmt.Println(n > 0, len(sink))
}
