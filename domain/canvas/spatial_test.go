package canvas

import "testing"

// TestCellHashSpreadsNeighbours: the cells of a 64×64 block (a board's
// worth) get distinct hashes, so the grid's map has no collision lists to
// search and copy (the library's uint64 hash gave each anti-diagonal one
// hash: 96 distinct values for these 4,096 cells).
func TestCellHashSpreadsNeighbours(t *testing.T) {
	seen := map[uint32]bool{}
	for x := int64(-32); x < 32; x++ {
		for y := int64(-32); y < 32; y++ {
			seen[cellHasher{}.Hash(cellKey(x, y))] = true
		}
	}
	if len(seen) < 4090 {
		t.Fatalf("%d distinct hashes for 4096 cells", len(seen))
	}
}
