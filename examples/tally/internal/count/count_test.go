package count

import "testing"

func TestText(t *testing.T) {
	got := Text("one two\nthree\n")
	want := Counts{Lines: 2, Words: 3, Bytes: 14}
	if got != want {
		t.Errorf("Text() = %+v, want %+v", got, want)
	}
}

func TestMaxLineLength(t *testing.T) {
	if got := MaxLineLength("ab\nabcd\n"); got != 4 {
		t.Errorf("MaxLineLength() = %d, want 4", got)
	}
}
