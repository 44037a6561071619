package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestDemoBannerKeepsWhatItSaysAndTheFoldersEnd: at 80 and 140 columns
// the demo's banner keeps "no model, no network, no charge" whole
// and cuts its folder from the start, so the folder's own name stays; at
// 60 what it says comes first.
func TestDemoBannerKeepsWhatItSaysAndTheFoldersEnd(t *testing.T) {
	t.Parallel()
	b := "moot demo · recorded debate: no model, no network, no charge · /tmp/user-scratch/long/moot-demo-683830436"
	for _, w := range []int{80, 140} {
		got := bannerLine(b, w)
		if ansi.StringWidth(got) > w || !strings.Contains(got, "no model, no network, no charge") || !strings.HasSuffix(got, "683830436") {
			t.Errorf("%d columns: %q", w, got)
		}
	}
	if got := bannerLine(b, 60); ansi.StringWidth(got) > 60 || !strings.HasPrefix(got, "moot demo · recorded debate: no model") {
		t.Errorf("60 columns: %q", got)
	}
}
