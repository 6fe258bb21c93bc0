// Package hugepages asks Linux to back the heap seg is about to grow into
// with transparent huge pages. On a virtual machine every first touch of a
// 4 KB page traps to the hypervisor, and a large run touches hundreds of
// megabytes: with 2 MB pages it takes about 40 times fewer faults
// (docs/performance.md, "Huge pages").
package hugepages
