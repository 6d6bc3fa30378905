//! Tests of the bounded line reader.

use super::*;
use std::io::BufReader;

fn all_lines(bytes: &[u8]) -> Vec<String> {
    let mut reader = BufReader::with_capacity(16, bytes);
    let mut out = Vec::new();
    while let Some(line) = next_line(&mut reader).unwrap() {
        out.push(line.text().unwrap());
    }
    out
}

#[test]
fn lines_lose_their_newline_and_carriage_return() {
    assert_eq!(all_lines(b"a\r\nb\nc"), vec!["a", "b", "c"]);
}

#[test]
fn an_empty_line_is_a_line() {
    assert_eq!(all_lines(b"\n\nx\n"), vec!["", "", "x"]);
}

#[test]
fn a_line_longer_than_the_buffer_is_read_whole() {
    let long = "é".repeat(40);
    assert_eq!(
        all_lines(format!("{long}\nz").as_bytes()),
        vec![long, "z".to_owned()]
    );
}

#[test]
fn a_huge_line_keeps_only_its_start_and_counts_the_rest() {
    let bytes = "é".repeat(MAX_LINE_CHARS + 3000);
    let mut reader = BufReader::new(bytes.as_bytes());
    let line = next_line(&mut reader).unwrap().unwrap();
    assert_eq!(
        (line.kept.len(), line.text().unwrap()),
        (
            MAX_KEPT_BYTES,
            format!(
                "{} [line cut: 3000 of {} characters not shown]",
                "é".repeat(MAX_LINE_CHARS),
                MAX_LINE_CHARS + 3000
            )
        )
    );
}

#[test]
fn a_nul_byte_makes_the_line_binary() {
    let mut reader = BufReader::new(&b"a\0b\n"[..]);
    let line = next_line(&mut reader).unwrap().unwrap();
    assert!(matches!(line.text(), Err(LinesError::Binary)));
}

#[test]
fn invalid_utf8_makes_the_line_binary() {
    let mut reader = BufReader::new(&[0xff, 0xfe, b'a'][..]);
    let line = next_line(&mut reader).unwrap().unwrap();
    assert!(matches!(line.text(), Err(LinesError::Binary)));
}

#[test]
fn the_rest_is_counted_with_or_without_a_final_newline() {
    let mut ended = BufReader::with_capacity(4, &b"a\nbb\nccc\n"[..]);
    let mut open = BufReader::with_capacity(4, &b"a\nbb\nccc"[..]);
    assert_eq!(
        (
            count_rest(&mut ended, &|| false).unwrap(),
            count_rest(&mut open, &|| false).unwrap()
        ),
        (Some(3), Some(3))
    );
}

#[test]
fn a_count_told_to_stop_stops() {
    let mut reader = BufReader::new(&b"a\nb\n"[..]);
    assert!(matches!(
        count_rest(&mut reader, &|| true),
        Err(LinesError::Stopped)
    ));
}

#[test]
fn binary_is_decided_from_the_first_8_kib() {
    let late_nul = [vec![b'a'; BINARY_CHECK_BYTES], vec![0]].concat();
    let cut_char = [vec![b'a'; BINARY_CHECK_BYTES - 1], "é".as_bytes().to_vec()].concat();
    let decided: Vec<bool> = [&b"a\0b"[..], &[0xff, b'a'][..], &late_nul, &cut_char]
        .iter()
        .map(|bytes| looks_binary(&mut BufReader::new(*bytes)).unwrap())
        .collect();
    assert_eq!(decided, [true, true, false, false]);
}

#[test]
fn a_line_without_end_is_scanned_only_to_the_limit() {
    let endless = vec![b'a'; MAX_LINE_SCAN_BYTES * 3];
    let mut reader = BufReader::new(&endless[..]);
    let line = next_line(&mut reader).unwrap().unwrap();
    assert_eq!((line.unfinished(), line.bytes), (true, MAX_LINE_SCAN_BYTES));
}
