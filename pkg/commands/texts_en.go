package commands

// english is REPLY_LANG=en.
func english() map[Key]string {
	return map[Key]string{
		KeyUpstreamFailed: "Sorry, I could not fetch a picture just now. Try again in a moment.",
		KeyInternal:       "Sorry, something went wrong. Try again in a moment.",
		KeyUnknown:        "I do not know the command !%[1]s. Write !help to see the list of commands.",
		KeyNotHere:        "The command !%[1]s does not work in this chat. Write !help to see what works here.",
		KeyCooldown:       "Wait %[1]s more before you use !%[2]s again.",
	}
}
