// go_labels.go - makes a Go CPU profile with pprof labels (runtime/pprof.Do),
// the input of tests/labels.sh: stackscope's label table, keep-label,
// drop-label and label-root are compared with Go's pprof -tagfocus,
// -tagignore and -tagroot on it.
//
//	go run go_labels.go OUT.pb.gz [SECONDS]
//
// Three goroutines burn CPU under labels worker=alpha / worker=beta (with
// a nested phase=parse or phase=sum) and worker="gamma ray" (a value with a
// blank); the main goroutine works without labels.  Needs only the
// standard library (GO111MODULE=off, GOPROXY=off: nothing is downloaded).
package main

import (
	"context"
	"os"
	"runtime/pprof"
	"strconv"
	"sync"
	"time"
)

var sink uint64

//go:noinline
func parse(n int) uint64 {
	var h uint64
	for i := 0; i < n; i++ {
		h = h*31 + uint64(len(strconv.Itoa(i)))
	}
	return h
}

//go:noinline
func sum(n int) uint64 {
	var s uint64
	for i := 0; i < n; i++ {
		s += uint64(i) * uint64(i)
	}
	return s
}

//go:noinline
func spin(until time.Time, f func(int) uint64) uint64 {
	var x uint64
	for time.Now().Before(until) {
		x += f(20000)
	}
	return x
}

func main() {
	if len(os.Args) < 2 {
		os.Stderr.WriteString("usage: go_labels OUT.pb.gz [SECONDS]\n")
		os.Exit(1)
	}
	secs := 1.5
	if len(os.Args) > 2 {
		if v, err := strconv.ParseFloat(os.Args[2], 64); err == nil {
			secs = v
		}
	}
	out, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := pprof.StartCPUProfile(out); err != nil {
		panic(err)
	}
	until := time.Now().Add(time.Duration(secs * float64(time.Second)))
	ctx := context.Background()
	var wg sync.WaitGroup
	var mu sync.Mutex
	work := func(labels []string, f func(int) uint64) {
		defer wg.Done()
		pprof.Do(ctx, pprof.Labels(labels...), func(context.Context) {
			x := spin(until, f)
			mu.Lock()
			sink += x
			mu.Unlock()
		})
	}
	wg.Add(3)
	go work([]string{"worker", "alpha", "phase", "parse"}, parse)
	go work([]string{"worker", "beta", "phase", "sum"}, sum)
	go work([]string{"worker", "gamma ray"}, sum)
	sink += spin(until, parse)
	wg.Wait()
	pprof.StopCPUProfile()
	if err := out.Close(); err != nil {
		panic(err)
	}
}
