// This file keeps the task suite out of the ratchet module: hidden/ and
// reference/ hold Go files that only build once overlaid on a task's repo/.
module example.com/ratchet-task-suite

go 1.26
