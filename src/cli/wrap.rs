//! Lines fitted to the terminal's width: a line longer than the terminal is broken at
//! spaces onto continuation lines indented under it, so nothing is cut and no word is
//! split where a space can be used instead (a word longer than a whole line is broken
//! inside, as the terminal would). A command line (`xqdiff ...`) is broken only
//! between its shell words, each broken line ending in ` \`, so it still runs when
//! pasted. Output that is not a terminal (a file, a pipe, JSON) is left as it is.

/// How far a continuation line is indented beyond the line it continues.
const HANG: usize = 4;

/// The width of the terminal stdout (`stderr` false) or stderr is, if it is one.
#[cfg(unix)]
pub(super) fn width(stderr: bool) -> Option<usize> {
    let size = if stderr {
        terminal_size::terminal_size_of(std::io::stderr())
    } else {
        terminal_size::terminal_size_of(std::io::stdout())
    };
    size.map(|(w, _)| usize::from(w.0))
}

/// Elsewhere lines are left to the terminal.
#[cfg(not(unix))]
pub(super) fn width(_stderr: bool) -> Option<usize> {
    None
}

/// `text` fitted to the terminal stdout (or stderr) is, as it is elsewhere.
pub(super) fn for_terminal(text: &str, stderr: bool) -> std::borrow::Cow<'_, str> {
    match width(stderr) {
        Some(width) => std::borrow::Cow::Owned(wrap(text, width)),
        None => std::borrow::Cow::Borrowed(text),
    }
}

/// `text` with each of its lines fitted to `width` columns.
pub(super) fn wrap(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        fit(line, width, &mut out);
    }
    out
}

/// One line, fitted.
fn fit(line: &str, width: usize, out: &mut String) {
    // Too narrow a terminal to fit anything sensibly: left to the terminal.
    if width < 20 || line.chars().count() <= width {
        out.push_str(line);
        return;
    }
    let indent = line.len() - line.trim_start_matches(' ').len();
    let body = &line[indent..];
    let command = body.starts_with("xqdiff ");
    let words = if command {
        shell_words(body)
    } else {
        body.split(' ').map(str::to_owned).collect()
    };
    let hang = (indent + HANG).min(width / 2);
    // A command's broken lines end in ` \`, which takes two columns.
    let room = |first: bool| {
        let lead = if first { indent } else { hang };
        width - lead - if command { 2 } else { 0 }
    };
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in words {
        let used = current.chars().count();
        let need = used + usize::from(used > 0) + word.chars().count();
        if used == 0 || need <= room(lines.is_empty()) {
            if used > 0 {
                current.push(' ');
            }
            current.push_str(&word);
        } else {
            lines.push(std::mem::replace(&mut current, word));
        }
    }
    lines.push(current);
    let last = lines.len() - 1;
    let mut started = false;
    for (i, text) in lines.iter().enumerate() {
        let lead = if i == 0 { indent } else { hang };
        // A word longer than the line is broken inside it rather than cut, each piece
        // after the first hung under the line.
        let mut rest: Vec<char> = text.chars().collect();
        let mut lead = lead;
        loop {
            if started {
                out.push('\n');
            }
            started = true;
            let take = rest.len().min(width - lead);
            out.extend(std::iter::repeat_n(' ', lead));
            out.extend(rest.drain(..take));
            if rest.is_empty() {
                break;
            }
            lead = hang;
        }
        if command && i < last {
            out.push_str(" \\");
        }
    }
}

/// A command line's words as a shell reads them apart, each with its quotes kept:
/// only the spaces between words are places to break it.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (None, ' ') => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                continue;
            }
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            _ => {}
        }
        word.push(c);
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each row: a line, a width, and the lines it is fitted into.
    #[test]
    fn long_lines_break_at_spaces_under_their_indent() {
        let table: &[(&str, usize, &[&str])] = &[
            ("short", 30, &["short"]),
            (
                "two lines\nthe second one is long enough to break",
                20,
                &[
                    "two lines",
                    "the second one is",
                    "    long enough to",
                    "    break",
                ],
            ),
            (
                "  cause: a horse jumps even when its leg is blocked",
                30,
                &[
                    "  cause: a horse jumps even",
                    "      when its leg is blocked",
                ],
            ),
            (
                "    xqdiff moves --fen '4k4/9/9/9/9/9/9/9/9/2NK5 w - - 0 1' --no-save",
                50,
                &[
                    "    xqdiff moves --fen \\",
                    "        '4k4/9/9/9/9/9/9/9/9/2NK5 w - - 0 1' \\",
                    "        --no-save",
                ],
            ),
            (
                "a-word-longer-than-the-whole-line-is-broken-not-cut",
                20,
                &[
                    "a-word-longer-than-t",
                    "    he-whole-line-is",
                    "    -broken-not-cut",
                ],
            ),
        ];
        for &(line, width, want) in table {
            let got = wrap(line, width);
            assert_eq!(got.lines().collect::<Vec<_>>(), want, "{line}");
            for l in got.lines() {
                assert!(l.chars().count() <= width, "{l:?} past {width}");
            }
            // Nothing is lost: the words are all there, in order.
            let words = |t: &str| -> String {
                t.replace(" \\\n", " ")
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            if !line.starts_with("a-word") {
                assert_eq!(words(&got), words(line));
            }
        }
    }
}
