//! The points a session can be rewound to (contract §24): each prompt with
//! its first line and the files changed after it; a rewind of the files is
//! undone by rewinding to the point after the last prompt.

use crate::support::{bash, plain_files, Place};
use agenthub_checkpoints::{rewind_points, ListedPoint, PointKind, Restored, RewindDone};
use agenthub_protocol::RewindScope;

/// The points with their times left out (they are the clock's).
fn points(place: &Place) -> Vec<ListedPoint> {
    rewind_points(&place.transcript, &place.ws)
        .unwrap()
        .into_iter()
        .map(|point| ListedPoint {
            time: point.time.map(|_| "TIME".to_owned()),
            ..point
        })
        .collect()
}

#[tokio::test]
async fn each_prompt_is_a_point_with_its_first_line_and_the_files_changed_after_it() {
    let place = Place::new();
    place.file("a.txt", b"a\n", 0o644);
    place
        .session(&[
            (
                "make b\nand drop a",
                vec![bash("c1", "echo b > b.txt && rm a.txt")],
            ),
            ("make c", vec![bash("c1", "echo c > c.txt")]),
        ])
        .await;
    let point = |index: u32, first_line: &str, changed: &[&str]| ListedPoint {
        index,
        kind: PointKind::Prompt(first_line.to_owned()),
        time: Some("TIME".to_owned()),
        changed: changed.iter().map(|file| (*file).to_owned()).collect(),
    };
    assert_eq!(
        points(&place),
        vec![
            point(1, "make b", &["a.txt", "b.txt"]),
            point(2, "make c", &["c.txt"])
        ]
    );
}

#[tokio::test]
async fn a_rewind_of_the_files_is_undone_by_rewinding_to_the_point_after_it() {
    let place = Place::new();
    place.file("keep.txt", b"kept\n", 0o644);
    place
        .session(&[("make it", vec![bash("c1", "echo v1 > made.txt")])])
        .await;
    let after = plain_files(&place.ws);
    let done = place.rewind(1, RewindScope::Code);
    assert!(!place.ws.join("made.txt").exists());
    place.rewind(2, RewindScope::Code);
    assert_eq!(
        (done, plain_files(&place.ws)),
        (
            RewindDone {
                files: Some(Restored {
                    written: Vec::new(),
                    removed: vec!["made.txt".to_owned()]
                }),
                nothing_to_restore: false,
                undo_point: Some(2),
            },
            after
        )
    );
}
