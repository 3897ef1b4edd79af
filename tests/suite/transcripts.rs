//! Replays every REPL transcript in history/ in a fresh session and compares the output.

use matfuse::cli::transcript;

#[test]
fn history_transcripts_replay() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("history");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("history/ exists")
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    let mut failures = Vec::new();
    let mut count = 0;
    for path in files
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
    {
        count += 1;
        // gpu_*.txt count kernels: they need an adapter (required in CI, skipped elsewhere).
        let gpu_only = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("gpu_"));
        if gpu_only && matfuse::gpu::device::ready().is_none() {
            assert!(
                std::env::var("MATFUSE_REQUIRE_GPU").map_or(true, |v| v != "1"),
                "MATFUSE_REQUIRE_GPU=1 but no GPU adapter for {}",
                path.display()
            );
            continue;
        }
        let text = std::fs::read_to_string(path).expect("readable transcript");
        let want = transcript::normalize(&text);
        let got = transcript::normalize(&transcript::replay(&text));
        if want != got {
            let (w, g): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
            let line = (0..w.len().max(g.len()))
                .find(|&i| w.get(i) != g.get(i))
                .unwrap_or(0);
            failures.push(format!(
                "{}: first difference at line {}:\n  want: {:?}\n  got:  {:?}",
                path.display(),
                line + 1,
                w.get(line),
                g.get(line)
            ));
        }
    }
    assert!(
        count >= 5,
        "expected transcripts in history/, found {count}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn transcript_parsing_groups_multiline_blocks() {
    let t = ">> for k = 1:2\n>>   disp(k)\n>> end\n     1\n     2\n>> x = 1;\n";
    let e = transcript::parse(t);
    assert_eq!(e.len(), 2);
    assert_eq!(e[0].input, "for k = 1:2\n  disp(k)\nend");
    assert_eq!(e[0].output, "     1\n     2\n");
    assert_eq!(e[1].output, "");
}
