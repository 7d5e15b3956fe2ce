// Command tally counts words, lines and bytes in files.
package main

import (
	"fmt"
	"os"

	"example.com/tally/internal/count"
	flag "github.com/spf13/pflag"
)

const version = "0.3.1"

func main() {
	lines := flag.BoolP("lines", "l", false, "print the line count")
	words := flag.BoolP("words", "w", false, "print the word count")
	showVersion := flag.Bool("version", false, "print the version and exit")
	flag.Parse()

	if *showVersion {
		fmt.Println("tally", version)
		return
	}
	for _, path := range flag.Args() {
		data, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "tally:", err)
			os.Exit(1)
		}
		c := count.Text(string(data))
		switch {
		case *lines:
			fmt.Printf("%8d %s\n", c.Lines, path)
		case *words:
			fmt.Printf("%8d %s\n", c.Words, path)
		default:
			fmt.Printf("%8d %8d %8d %s\n", c.Lines, c.Words, c.Bytes, path)
		}
	}
}
