package serve

import (
	"testing"

	"ratchet/door/doortest"
)

func TestMain(m *testing.M) { doortest.Main(m) }
