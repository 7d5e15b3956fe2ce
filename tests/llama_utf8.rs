//! UTF-8 decoding of token pieces: a character whose bytes are split over several tokens (byte
//! fallback tokens, emoji, CJK) arrives whole, in order, and nothing is lost — the decoder the
//! llama backend keeps across `token_to_piece` calls.
#![cfg(feature = "llama")]

use toolmend::backend::llama::Utf8Stream;

const TEXT: &str = "héllo wörld — 日本語 🦀🔧 ok\n{\"city\": \"Zürich\", \"emoji\": \"👍🏽\"}";

/// Feeds `pieces` through one decoder and returns the chunks it produced (with the final flush).
fn decode(pieces: &[&[u8]]) -> Vec<String> {
    let mut d = Utf8Stream::new();
    let mut chunks = Vec::new();
    for p in pieces {
        let mut out = String::new();
        d.push(p, &mut out);
        chunks.push(out);
    }
    let mut out = String::new();
    d.finish(&mut out);
    chunks.push(out);
    chunks
}

#[test]
fn every_split_point_gives_back_the_text() {
    let bytes = TEXT.as_bytes();
    for i in 0..=bytes.len() {
        for j in i..=bytes.len() {
            let chunks = decode(&[&bytes[..i], &bytes[i..j], &bytes[j..]]);
            assert_eq!(chunks.concat(), TEXT, "split at {i} and {j}");
        }
    }
}

#[test]
fn one_byte_per_token_holds_back_partial_characters() {
    let pieces: Vec<&[u8]> = TEXT.as_bytes().chunks(1).collect();
    let chunks = decode(&pieces);
    assert_eq!(chunks.concat(), TEXT);
    // A chunk is never part of a character: each non-empty chunk is exactly one whole character.
    for c in chunks.iter().filter(|c| !c.is_empty()) {
        assert_eq!(c.chars().count(), 1, "{c:?}");
    }
    // The crab's four bytes produce one chunk, after its last byte.
    let crab = TEXT.find('🦀').unwrap();
    assert_eq!(chunks[crab..crab + 4], ["", "", "", "🦀"]);
}

#[test]
fn invalid_and_unfinished_bytes_become_replacement_characters() {
    // A stray continuation byte, then a character cut off at the end of generation.
    let chunks = decode(&[b"a\x80b", &"🦀".as_bytes()[..2]]);
    assert_eq!(chunks, ["a\u{FFFD}b", "", "\u{FFFD}"]);
}
