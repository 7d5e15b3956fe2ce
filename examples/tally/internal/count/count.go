// Package count computes line, word and byte counts.
package count

import "strings"

// Counts holds the totals for one text.
type Counts struct {
	Lines int
	Words int
	Bytes int
}

// Text counts the lines, words and bytes of s.
func Text(s string) Counts {
	return Counts{
		Lines: strings.Count(s, "\n"),
		Words: len(strings.Fields(s)),
		Bytes: len(s),
	}
}

// MaxLineLength returns the length of the longest line in s.
func MaxLineLength(s string) int {
	longest := 0
	for _, line := range strings.Split(s, "\n") {
		if len(line) > longest {
			longest = len(line)
		}
	}
	return longest
}
