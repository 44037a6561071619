// Command fakeprovider runs the fake model provider on 127.0.0.1 for manual
// experiments with the vendor CLIs; it prints its URL and logs every
// request. Usage: fakeprovider [MODE]; FAKEPROVIDER_CACHE=1 emulates the
// APIs' prompt caches (Server.Cache).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/reversa/moot/internal/fakeprovider"
)

func main() {
	s := fakeprovider.New()
	if len(os.Args) > 1 {
		s.SetMode(fakeprovider.Mode(os.Args[1]))
	}
	s.Cache = os.Getenv("FAKEPROVIDER_CACHE") == "1"
	fmt.Println(s.URL)
	go func() {
		seen := 0
		for range time.Tick(200 * time.Millisecond) {
			rs := s.Requests()
			for _, r := range rs[seen:] {
				b, _ := json.Marshal(r.Body)
				if len(b) > 300 {
					b = b[:300]
				}
				fmt.Fprintf(os.Stderr, "%s %s %s\n", r.Method, r.Path, b)
			}
			seen = len(rs)
		}
	}()
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt)
	<-c
	s.Close()
}
