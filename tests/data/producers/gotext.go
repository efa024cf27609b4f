// gotext.go: Go's legacy text profiles (debug=1, and the goroutine dump
// debug=2), each to its own file, for stackscope's fuzz seeds.
package main

import (
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"
)

var sink [][]byte

func alloc() {
	for i := 0; i < 2000; i++ {
		sink = append(sink, make([]byte, 4096))
	}
}

func main() {
	runtime.MemProfileRate = 4096
	runtime.SetBlockProfileRate(1)
	runtime.SetMutexProfileFraction(1)
	alloc()
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			time.Sleep(2 * time.Millisecond)
			mu.Unlock()
		}()
	}
	wg.Wait()
	block := make(chan int)
	go func() { <-block }()
	runtime.GC()
	for _, w := range []struct {
		name  string
		debug int
		file  string
	}{{"goroutine", 1, "goroutine.txt"}, {"goroutine", 2, "goroutine-dump.txt"},
		{"heap", 1, "heap.txt"}, {"allocs", 1, "allocs.txt"},
		{"threadcreate", 1, "threadcreate.txt"}, {"block", 1, "block.txt"},
		{"mutex", 1, "mutex.txt"}} {
		f, err := os.Create(w.file)
		if err != nil {
			panic(err)
		}
		pprof.Lookup(w.name).WriteTo(f, w.debug)
		f.Close()
	}
}
