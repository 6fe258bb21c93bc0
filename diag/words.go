package diag

import "strings"

// Article puts "a" or "an" before a word of a message ("an outcome", "a
// test"). Kind names and codes are the words it meets; a vowel letter
// stands for a vowel sound in all of them.
func Article(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}
