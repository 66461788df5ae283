module ratchet/harness

go 1.26
