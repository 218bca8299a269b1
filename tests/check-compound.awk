# SPDX-License-Identifier: MIT
# Lists each `check DESC CMD...` of a shell test whose command list goes on
# with && or || (or a pipe): the shell reads `check d [ a ] && [ b ]` as
# `(check d [ a ]) && [ b ]`, so only the first command is asserted and the
# rest runs outside the check, its failure unseen.  Prints FILE:LINE: TEXT
# for each; tests/tap-lint.sh fails when anything is printed.
#
# A small reader of shell syntax is enough for that: quotes, backslashes,
# comments, $( ) and ( ) nesting, backquotes and here-documents are
# followed, so an && inside a quoted `sh -c '...'` or a $( ) is not taken
# for one that ends the check.  POSIX awk only.

function flush_file() {
	if (nl > 0)
		scan()
	nl = 0
}

# The next character, crossing into the next line; "" at the end.
function nextc(   c) {
	if (ln > nl)
		return ""
	if (pos > length(L[ln])) {
		c = "\n"
		ln++
		pos = 1
		return c
	}
	c = substr(L[ln], pos, 1)
	pos++
	return c
}

function peekc() {
	if (ln > nl)
		return ""
	if (pos > length(L[ln]))
		return "\n"
	return substr(L[ln], pos, 1)
}

# A word ended at the top of a command: is it a `check` there?
function end_word() {
	if (word == "")
		return
	if (cmd_start) {
		if (word ~ /^(if|then|else|elif|do|while|until|!|\{|time)$/ ||
		    word ~ /^[A-Za-z_][A-Za-z0-9_]*=/) {
			# still before the command's name
		} else {
			if (word == "check" && !in_check) {
				in_check = 1
				check_depth = depth
				check_line = word_line
			}
			cmd_start = 0
		}
	}
	word = ""
}

# A separator ends the check's command; && || | report it first.
function separator(op) {
	end_word()
	if (in_check && depth == check_depth) {
		if (op == "&&" || op == "||" || op == "|")
			report(op)
		in_check = 0
	}
	cmd_start = 1
}

function report(op) {
	print FILENAME_ ":" check_line ": " L[check_line] " [... " op "]"
	found++
}

# Skip the lines of pending here-documents, from the start of a line.
function skip_heredocs(   i, d, s) {
	for (i = 1; i <= nhd; i++) {
		d = HD[i]
		while (ln <= nl) {
			s = L[ln]
			if (HDT[i])
				sub(/^\t+/, "", s)
			ln++
			if (s == d)
				break
		}
	}
	pos = 1
	nhd = 0
}

# After <<: read the delimiter word, unquoted.
function read_heredoc(   c, d, strip) {
	strip = 0
	if (peekc() == "-") {
		nextc()
		strip = 1
	}
	while (peekc() == " " || peekc() == "\t")
		nextc()
	d = ""
	while ((c = peekc()) != "" && c !~ /[ \t\n;&|<>()]/) {
		nextc()
		if (c != "'" && c != "\"" && c != "\\")
			d = d c
	}
	nhd++
	HD[nhd] = d
	HDT[nhd] = strip
}

function scan(   c, n, q) {
	ln = 1; pos = 1; depth = 0; nstack = 0
	word = ""; cmd_start = 1; in_check = 0; nhd = 0
	while ((c = nextc()) != "") {
		if (word == "")
			word_line = (c == "\n") ? ln - 1 : ln
		if (c == "\\") {
			n = nextc()
			if (n != "\n")
				word = word c n
			continue
		}
		if (c == "'") {
			word = word "'"
			while ((q = nextc()) != "" && q != "'")
				;
			continue
		}
		if (c == "\"") {
			word = word "\""
			skip_dquote()
			continue
		}
		if (c == "`") {
			word = word "`"
			skip_backquote()
			continue
		}
		if (c == "$" && peekc() == "(") {
			nextc()
			word = word "$("
			skip_parens()
			continue
		}
		if (c == "#" && word == "") {
			while ((q = peekc()) != "" && q != "\n")
				nextc()
			continue
		}
		if (c == " " || c == "\t") {
			end_word()
			continue
		}
		if (c == "\n") {
			end_word()
			if (in_check && depth == check_depth)
				in_check = 0
			cmd_start = 1
			if (nhd)
				skip_heredocs()
			continue
		}
		if (c == "&" || c == "|") {
			if (peekc() == c) {
				nextc()
				separator(c c)
				continue
			}
			if (c == "|" && cmd_start && word == "")
				continue        # a case pattern's |
			separator(c)
			continue
		}
		if (c == ";") {
			if (peekc() == ";")
				nextc()
			separator(";")
			continue
		}
		if (c == "(") {
			end_word()
			depth++
			cmd_start = 1
			continue
		}
		if (c == ")") {
			end_word()
			if (in_check && depth == check_depth)
				in_check = 0
			if (depth > 0)
				depth--
			cmd_start = 1
			continue
		}
		if (c == "<" && peekc() == "<") {
			nextc()
			end_word()
			if (peekc() == "<")
				nextc()         # <<< here-string: a word follows
			else
				read_heredoc()
			continue
		}
		if (c == "<" || c == ">") {
			end_word()
			if (peekc() == "&")
				nextc()         # >&2, 2>&1, <&3: no separator
			continue
		}
		word = word c
	}
	end_word()
}

# Inside "...": up to the closing quote, through $( ) and ``.
function skip_dquote(   c) {
	while ((c = nextc()) != "") {
		if (c == "\\") {
			nextc()
		} else if (c == "\"") {
			return
		} else if (c == "`") {
			skip_backquote()
		} else if (c == "$" && peekc() == "(") {
			nextc()
			skip_parens()
		}
	}
}

function skip_backquote(   c) {
	while ((c = nextc()) != "") {
		if (c == "\\")
			nextc()
		else if (c == "`")
			return
	}
}

# Inside $( ): up to the matching ), through quotes and nested parens.
function skip_parens(   c, d) {
	d = 1
	while ((c = nextc()) != "") {
		if (c == "\\") {
			nextc()
		} else if (c == "'") {
			while ((c = nextc()) != "" && c != "'")
				;
		} else if (c == "\"") {
			skip_dquote()
		} else if (c == "`") {
			skip_backquote()
		} else if (c == "(") {
			d++
		} else if (c == ")") {
			if (--d == 0)
				return
		}
	}
}

FNR == 1 {
	flush_file()
	FILENAME_ = FILENAME
}
{ L[++nl] = $0 }
END {
	flush_file()
	exit found ? 1 : 0
}
