// Command measures writes real Go profiles made by Go's own runtime for
// stackscope's measure tests: cpu.pb.gz (runtime/pprof CPU profile),
// heap.pb.gz (WriteHeapProfile: alloc_objects, alloc_space, inuse_objects,
// inuse_space), block.pb.gz and mutex.pb.gz.
package main

import (
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"
)

var sink [][]byte
var keep [][]byte

//go:noinline
func allocSmall(n int) {
	for i := 0; i < n; i++ {
		sink = append(sink, make([]byte, 64))
		if len(sink) > 1000 {
			sink = sink[:0]
		}
	}
}

//go:noinline
func allocBig(n int) {
	for i := 0; i < n; i++ {
		b := make([]byte, 1<<20)
		if i%4 == 0 {
			keep = append(keep, b)
		}
	}
}

//go:noinline
func spin(d time.Duration) int {
	x := 0
	for t := time.Now(); time.Since(t) < d; {
		for i := 0; i < 10000; i++ {
			x += i * i
		}
	}
	return x
}

//go:noinline
func contend() {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				mu.Lock()
				time.Sleep(50 * time.Microsecond)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}

func write(name string, f func(io.Writer) error) {
	out, err := os.Create(name)
	if err != nil {
		panic(err)
	}
	if err := f(out); err != nil {
		panic(err)
	}
	out.Close()
}

func main() {
	runtime.MemProfileRate = 4096
	runtime.SetBlockProfileRate(1)
	runtime.SetMutexProfileFraction(1)
	cpu, err := os.Create("cpu.pb.gz")
	if err != nil {
		panic(err)
	}
	pprof.StartCPUProfile(cpu)
	spin(500 * time.Millisecond)
	allocSmall(200000)
	allocBig(64)
	contend()
	pprof.StopCPUProfile()
	cpu.Close()
	runtime.GC()
	write("heap.pb.gz", pprof.WriteHeapProfile)
	write("block.pb.gz", func(f io.Writer) error { return pprof.Lookup("block").WriteTo(f, 0) })
	write("mutex.pb.gz", func(f io.Writer) error { return pprof.Lookup("mutex").WriteTo(f, 0) })
}
