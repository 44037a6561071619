// Package digits writes counts for people: 12,840, not 12840, wherever a
// count of tokens or calls is shown beside others so written.
package digits

import "strconv"

// Grouped is n with a comma between each group of three digits.
func Grouped(n int) string {
	s := strconv.Itoa(n)
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3+1)
	if neg {
		out = append(out, '-')
	}
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}
