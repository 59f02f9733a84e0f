//! Converts the crawler profiles (`src/crawlers.yaml`, kept as YAML for people to edit) into
//! JSON in `$OUT_DIR/crawlers.json`, which the engine embeds and reads with `serde_json`: the
//! engine then needs no YAML parser at run time (it would add about 20 KB, gzipped, to the
//! WebAssembly module of the pages' tester).

fn main() {
    println!("cargo:rerun-if-changed=src/crawlers.yaml");
    let yaml = std::fs::read_to_string("src/crawlers.yaml").expect("src/crawlers.yaml is readable");
    let value: serde_json::Value =
        serde_norway::from_str(&yaml).unwrap_or_else(|e| panic!("src/crawlers.yaml: {e}"));
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    std::fs::write(out.join("crawlers.json"), value.to_string()).expect("OUT_DIR is writable");
}
