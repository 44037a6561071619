// Command glamourfloor does nothing but link the Markdown renderer moot
// links (charm.land/glamour, and through it chroma): its start is the
// floor of any program that renders Markdown with it, package
// initialisers included. BenchmarkStartup compares `moot version` with it.
package main

import _ "charm.land/glamour/v2"

func main() {}
