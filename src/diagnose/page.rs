//! The catalogue as a page of the docs.

use super::catalogue::Variant;
use super::examples::example;

/// `docs/variants.md`, written from the catalogue: a test compares the file with this, so
/// the page cannot drift from the code.
pub(crate) fn catalogue_page() -> String {
    let mut page = String::from(
        "# Rule variants: the causes xqdiff can name\n\n\
         Each variant is a plausible misreading of the rules (`docs/rules.md`), built as a \
         complete alternative generator on the naive one. When a subject's answers on a \
         finding's witnesses are exactly a variant's, the variant's sentence is the \
         finding's cause: `cause: <sentence> (variant <name>, explains N of N witnesses, \
         confirmed on K positions asked)`. Several variants that explain a finding equally are named most specific first \
         (the higher the rank, the fewer positions the variant changes). A misread piece \
         rule is the move list's only, as in an engine that detects check with code of its \
         own (a check detector that misreads a piece is one of the `check-*` variants), \
         except in the `*-also-in-check` variants: an engine that reads attacks from the \
         same piece definition as moves misreads the piece in both.\n\n\
         A variant that explains the witnesses is a hypothesis until the subject has \
         answered questions that could refute it. Before it is named the subject is asked \
         about: the variant's example below, mirrored left to right and with the colours \
         swapped (a bug of one side or one wing is not named by a variant of both); the \
         witness mirrored and colour-swapped, where a candidate answers them otherwise \
         than the rules; up to three positions one small change from the witness (a \
         piece taken off, the other side to move, a piece stepped to a point near it) \
         where the variant answers otherwise than the rules; and, while several variants \
         tie, positions that tell them apart; then the positions of the last column, \
         which hold the variant's sentence to its limits (for a cannon or a rook the \
         rule along the other axis; where the variant reads the rule as written, the \
         rule itself). A variant that answers any of them otherwise than the subject is \
         dropped; when none is left the finding is `unexplained`, and says what refuted \
         each (`fits with Red to move only`, `fits on one wing only`, `refuted on its \
         own example`, `refuted where its sentence is tested to its limits`, `refuted next \
         to the witness`). Two bugs on one witness are named \
         as a pair only when the pair was asked such questions, or when both are causes \
         already named. `K` counts the questions it survived.\n\n\
         This page is written from the catalogue (`src/diagnose/catalogue.rs`) and its \
         examples (`src/diagnose/examples.rs`, `src/diagnose/probes.rs`); a test fails when they differ \
         (`cargo test --lib diagnose` prints the page to copy). Each example is a position \
         where the variant answers differently from the rules: in its move list, or at the \
         depth given.\n\n\
         | variant | rank | the subject's rule | example, asked to confirm it | also asked |\n|---|---|---|---|---|\n",
    );
    for &v in Variant::ALL {
        let example = match example(v) {
            Some((pos, 1)) => format!("`{}`", pos.fen()),
            Some((pos, depth)) => format!("`{}` (depth {depth})", pos.fen()),
            None => String::new(),
        };
        let probes: Vec<String> = super::probes::of(v)
            .map(|p| format!("`{}`", p.fen()))
            .collect();
        page.push_str(&format!(
            "| `{}` | {} | {} | {} | {} |\n",
            v.name(),
            v.specificity(),
            v.sentence(),
            example,
            probes.join("; ")
        ));
    }
    page
}
