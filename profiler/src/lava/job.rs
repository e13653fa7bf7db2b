//! A LAVA job definition that boots a board N times and, optionally, runs a suite of its
//! benchmarks with `perfguide-bench` in a LAVA test action.
//!
//! N boots are N `boot` actions in sequence, each powering the board on anew (a QEMU board:
//! a new QEMU process). LAVA's job schema (lava-common 2023.01, `lava_common/schemas`) has no
//! block that repeats actions: its per-action `repeat` sets the action's retries on failure
//! (`max_retries` in the dispatcher's `Action`), which would hide failed boots rather than
//! count them.
//!
//! The device type, the boot method and the prompts come from the profile's `[lava]` and
//! `[login]` tables; a QEMU board's machine, CPU, memory, images and other options come from
//! its `[qemu] args`, split into what LAVA's `qemu` device type sets itself (job `context`)
//! and the images of a `deploy: to: tmpfs` action (`image_arg`, its `{role}` placeholder the
//! downloaded file).

use super::LavaError;
use crate::bench::RUNNER;
use crate::process::quote_argv;
use crate::profile::{Board, LavaBootMethod, LavaSection, LoginConfig};
use serde::Serialize;
use std::collections::BTreeMap;

/// The benchmarks a job runs after its last boot.
#[derive(Debug, Clone)]
pub struct BenchStep {
    /// A suite of the runner (`perfguide-bench suites`).
    pub suite: String,
    /// Runs of each benchmark (`perfguide-bench run --repeat`).
    pub runs: u32,
    /// Seconds the test action may take.
    pub timeout_s: u64,
}

/// What a job does.
#[derive(Debug, Clone)]
pub struct JobOptions {
    /// Boots, each from power-on.
    pub cycles: u32,
    /// Benchmarks after the last boot.
    pub bench: Option<BenchStep>,
    /// URLs of a QEMU board's image files by role (`u_boot`, `disk`, `uboot_env`: the
    /// `{role}` placeholders of `[qemu] args`).
    pub images: BTreeMap<String, String>,
}

/// The name of the inline test definition that runs the benchmarks.
pub const BENCH_DEFINITION: &str = "perfguide-bench";

/// Seconds the deploy action of a QEMU board may take (downloading its images).
const DEPLOY_TIMEOUT_S: u64 = 600;

/// How the overlay with LAVA's test shell gets onto a board that runs a test action: busybox
/// `wget` and `tar`, which the perfguide image has.
const DOWNLOAD_COMMAND: &str = "wget -S";
const UNPACK_COMMAND: &str = "tar -C / -xzf";

/// QEMU options LAVA's `qemu` device type (`qemu.jinja2`) writes itself: the console on
/// stdio (`-nographic`, LAVA's serial connection), so the profile's are left out.
const SET_BY_DEVICE_TYPE: [(&str, Option<&str>); 2] =
    [("-nographic", None), ("-serial", Some("stdio"))];

#[derive(Serialize)]
struct Job {
    device_type: String,
    job_name: String,
    timeouts: Timeouts,
    priority: &'static str,
    visibility: &'static str,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    context: BTreeMap<String, ContextValue>,
    metadata: BTreeMap<String, String>,
    /// Each action a one-key mapping (`- boot: {...}`), as LAVA writes them.
    #[serde(with = "serde_yaml::with::singleton_map_recursive")]
    actions: Vec<Action>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum ContextValue {
    Text(String),
    Number(u64),
    List(Vec<String>),
}

#[derive(Serialize)]
struct Timeouts {
    job: Timeout,
    action: Timeout,
    connection: Timeout,
}

#[derive(Serialize, Clone, Copy)]
struct Timeout {
    seconds: u64,
}

#[derive(Serialize)]
#[serde(rename_all = "lowercase")]
enum Action {
    Deploy(Deploy),
    Boot(Boot),
    Test(Test),
}

#[derive(Serialize)]
struct Deploy {
    to: &'static str,
    timeout: Timeout,
    images: BTreeMap<String, Image>,
}

#[derive(Serialize)]
struct Image {
    url: String,
    image_arg: String,
}

#[derive(Serialize)]
struct Boot {
    method: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    media: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    commands: Option<Vec<String>>,
    timeout: Timeout,
    auto_login: AutoLogin,
    prompts: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    transfer_overlay: Option<TransferOverlay>,
}

#[derive(Serialize)]
struct AutoLogin {
    login_prompt: String,
    username: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    password_prompt: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    password: Option<String>,
}

#[derive(Serialize)]
struct TransferOverlay {
    download_command: &'static str,
    unpack_command: &'static str,
}

#[derive(Serialize)]
struct Test {
    timeout: Timeout,
    definitions: Vec<Definition>,
}

#[derive(Serialize)]
struct Definition {
    from: &'static str,
    name: &'static str,
    path: String,
    repository: TestDef,
}

#[derive(Serialize)]
struct TestDef {
    metadata: TestMetadata,
    run: Steps,
}

#[derive(Serialize)]
struct TestMetadata {
    format: &'static str,
    name: &'static str,
    description: String,
}

#[derive(Serialize)]
struct Steps {
    steps: Vec<String>,
}

/// Whether a suite name is one the runner can have: `[A-Za-z0-9._-]`, the characters of
/// its benchmark ids (docs/bench-framing.md), so it goes into the test's shell step as one
/// word.
fn valid_suite(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"._-".contains(&c))
}

/// A QEMU board's `[qemu] args` as LAVA's `qemu` device type takes them: job context
/// (`arch`, `machine`, `cpu`, `memory`, `extra_options`) and image arguments by role.
struct QemuSplit {
    context: BTreeMap<String, ContextValue>,
    images: BTreeMap<String, String>,
}

fn split_qemu(board: &Board) -> Result<QemuSplit, LavaError> {
    let q = board.qemu()?;
    let mut context = BTreeMap::new();
    let arch = q
        .binary
        .rsplit('/')
        .next()
        .and_then(|b| b.strip_prefix("qemu-system-"))
        .ok_or_else(|| {
            LavaError::Invalid(format!(
                "board {}: [qemu] binary {:?} is not qemu-system-<arch>, which LAVA's qemu \
                 device type chooses by `arch`",
                board.name(),
                q.binary
            ))
        })?;
    context.insert("arch".into(), ContextValue::Text(arch.into()));
    let mut images = BTreeMap::new();
    let mut extra = Vec::new();
    let args = &q.args;
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        let value = args.get(i + 1).filter(|v| !v.starts_with('-'));
        i += 1 + usize::from(value.is_some());
        let value = value.map(String::as_str);
        if SET_BY_DEVICE_TYPE.contains(&(flag, value)) {
            continue;
        }
        match (flag, value) {
            ("-M" | "-machine", Some(v)) => {
                context.insert("machine".into(), ContextValue::Text(v.into()));
            }
            ("-cpu", Some(v)) => {
                context.insert("cpu".into(), ContextValue::Text(v.into()));
            }
            ("-m", Some(v)) => {
                let m = v
                    .parse()
                    .map_or_else(|_| ContextValue::Text(v.into()), ContextValue::Number);
                context.insert("memory".into(), m);
            }
            ("-monitor", Some(v)) => {
                context.insert("monitor".into(), ContextValue::Text(v.into()));
            }
            (f, Some(v)) => match placeholder(v) {
                Some(role) => {
                    let arg = format!("{f} {v}");
                    if images.insert(role.to_string(), arg).is_some() {
                        return Err(LavaError::Invalid(format!(
                            "board {}: [qemu] args name {{{role}}} twice; a LAVA image has one \
                             image_arg",
                            board.name()
                        )));
                    }
                }
                None => extra.push(format!("{f} {v}")),
            },
            (f, None) => extra.push(f.to_string()),
        }
    }
    if !extra.is_empty() {
        context.insert("extra_options".into(), ContextValue::List(extra));
    }
    Ok(QemuSplit { context, images })
}

/// The `{role}` placeholder an argument holds, if any.
fn placeholder(arg: &str) -> Option<&str> {
    let open = arg.find('{')?;
    let close = arg[open..].find('}')? + open;
    Some(&arg[open + 1..close])
}

/// The LAVA job definition (YAML) of `board` doing `o`.
pub fn job_yaml(board: &Board, o: &JobOptions) -> Result<String, LavaError> {
    let lava = board.lava()?;
    check_options(o)?;
    let login: LoginConfig = board.login();
    let prompts = if lava.prompts.is_empty() {
        vec![login.prompt.clone()]
    } else {
        lava.prompts.clone()
    };
    let boot_timeout = Timeout {
        seconds: lava.boot_timeout_s,
    };
    let mut actions = Vec::new();
    let mut context = BTreeMap::new();
    let mut total = u64::from(o.cycles) * lava.boot_timeout_s;
    if let Some((deploy, ctx)) = deploy_action(board, lava, o)? {
        context = ctx;
        actions.push(deploy);
        total += DEPLOY_TIMEOUT_S;
    }
    for cycle in 1..=o.cycles {
        let last = cycle == o.cycles;
        actions.push(Action::Boot(Boot {
            method: lava.boot_method.as_str(),
            media: (lava.boot_method == LavaBootMethod::Qemu).then_some("tmpfs"),
            commands: (lava.boot_method == LavaBootMethod::UBoot)
                .then(|| lava.boot_commands.clone()),
            timeout: boot_timeout,
            auto_login: AutoLogin {
                login_prompt: login.login_prompt.clone(),
                username: login.user.clone(),
                password_prompt: login
                    .password
                    .as_ref()
                    .map(|_| login.password_prompt.clone()),
                password: login.password.clone(),
            },
            prompts: prompts.clone(),
            transfer_overlay: (last && o.bench.is_some()).then_some(TransferOverlay {
                download_command: DOWNLOAD_COMMAND,
                unpack_command: UNPACK_COMMAND,
            }),
        }));
    }
    let mut job_name = format!("perfguide {}: {} boots", board.name(), o.cycles);
    let mut metadata = BTreeMap::new();
    metadata.insert("perfguide.board".to_string(), board.name().to_string());
    metadata.insert("perfguide.cycles".to_string(), o.cycles.to_string());
    if let Some(b) = &o.bench {
        job_name.push_str(&format!(", benchmarks {} x{}", b.suite, b.runs));
        metadata.insert("perfguide.bench".to_string(), b.suite.clone());
        actions.push(bench_action(board, b));
        total += b.timeout_s;
    }
    let job = Job {
        device_type: lava.device_type.clone(),
        job_name,
        timeouts: Timeouts {
            job: Timeout {
                // Room for LAVA's own steps between the actions.
                seconds: total + total / 10 + 60,
            },
            action: boot_timeout,
            connection: Timeout { seconds: 120 },
        },
        priority: "medium",
        visibility: "public",
        context,
        metadata,
        actions,
    };
    Ok(serde_yaml::to_string(&job)?)
}

/// The options a job cannot be made with.
fn check_options(o: &JobOptions) -> Result<(), LavaError> {
    if o.cycles == 0 {
        return Err(LavaError::Invalid("--cycles must be at least 1".into()));
    }
    if let Some(b) = &o.bench {
        if !valid_suite(&b.suite) {
            return Err(LavaError::Invalid(format!(
                "--bench {:?}: a suite name has only the characters [A-Za-z0-9._-] \
                 (`perfguide-bench suites` lists them)",
                b.suite
            )));
        }
        if b.runs == 0 {
            return Err(LavaError::Invalid("--runs must be at least 1".into()));
        }
    }
    Ok(())
}

/// A job's context: the device's QEMU arguments LAVA does not set.
type Context = BTreeMap<String, ContextValue>;

/// A QEMU board's deploy action (its images at the URLs of `--image`) and the job's context
/// (the rest of its QEMU arguments); none for a board that boots its own image, which takes
/// no `--image`.
fn deploy_action(
    board: &Board,
    lava: &LavaSection,
    o: &JobOptions,
) -> Result<Option<(Action, Context)>, LavaError> {
    if lava.boot_method == LavaBootMethod::Qemu {
        let split = split_qemu(board)?;
        let mut images = BTreeMap::new();
        for (role, image_arg) in split.images {
            let url = o.images.get(&role).cloned().ok_or_else(|| {
                LavaError::Invalid(format!(
                    "board {}: no URL for the image {role:?} (`--image {role}=URL`)",
                    board.name()
                ))
            })?;
            images.insert(role, Image { url, image_arg });
        }
        if let Some(unused) = o.images.keys().find(|r| !images.contains_key(*r)) {
            return Err(LavaError::Invalid(format!(
                "--image {unused}=...: board {} has no image {unused:?} (its [qemu] args name {})",
                board.name(),
                images.keys().cloned().collect::<Vec<_>>().join(", ")
            )));
        }
        return Ok(Some((
            Action::Deploy(Deploy {
                to: "tmpfs",
                timeout: Timeout {
                    seconds: DEPLOY_TIMEOUT_S,
                },
                images,
            }),
            split.context,
        )));
    } else if let Some(r) = o.images.keys().next() {
        return Err(LavaError::Invalid(format!(
            "--image {r}=...: board {} boots the image on the board (boot_method = \"{}\"), \
             LAVA deploys nothing",
            board.name(),
            lava.boot_method.as_str()
        )));
    }
    Ok(None)
}

/// The benchmark action: the board's [bench] setup lines as steps of their own, then the
/// runner with its [bench] env.
fn bench_action(board: &Board, b: &BenchStep) -> Action {
    // The env through `env`: a quoted assignment is no assignment to the shell.
    let setup = board.bench();
    let mut run = Vec::new();
    if !setup.env.is_empty() {
        run.push("env".to_string());
        run.extend(setup.env.iter().map(|(k, v)| format!("{k}={v}")));
    }
    run.extend([
        RUNNER.to_string(),
        "run".into(),
        "--repeat".into(),
        b.runs.to_string(),
        b.suite.clone(),
    ]);
    let mut steps = vec![format!("{RUNNER} version")];
    steps.extend(setup.setup.iter().cloned());
    steps.push(quote_argv(&run));
    Action::Test(Test {
        timeout: Timeout {
            seconds: b.timeout_s,
        },
        definitions: vec![Definition {
            from: "inline",
            name: BENCH_DEFINITION,
            path: format!("inline/{BENCH_DEFINITION}.yaml"),
            repository: TestDef {
                metadata: TestMetadata {
                    format: "Lava-Test Test Definition 1.0",
                    name: BENCH_DEFINITION,
                    description: format!(
                        "{RUNNER} runs the {} suite {} times; its framed output on the \
                         console is read by `perfguide bench parse`",
                        b.suite, b.runs
                    ),
                },
                run: Steps { steps },
            },
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls() -> BTreeMap<String, String> {
        ["u_boot", "disk", "uboot_env"]
            .iter()
            .map(|r| (r.to_string(), format!("file:///img/{r}")))
            .collect()
    }

    #[test]
    fn qemu_job_from_the_profile() {
        let b = Board::builtin("qemu-arm64").unwrap();
        let y = job_yaml(
            &b,
            &JobOptions {
                cycles: 3,
                bench: None,
                images: urls(),
            },
        )
        .unwrap();
        let v: serde_yaml::Value = serde_yaml::from_str(&y).unwrap();
        assert_eq!(v["device_type"], "qemu");
        assert_eq!(v["context"]["arch"], "aarch64");
        assert_eq!(v["context"]["machine"], "virt");
        assert_eq!(v["context"]["cpu"], "cortex-a57");
        assert_eq!(v["context"]["memory"], 512);
        let extra: Vec<String> =
            serde_yaml::from_value(v["context"]["extra_options"].clone()).unwrap();
        assert_eq!(
            extra,
            [
                "-smp 1",
                "-no-reboot",
                "-device virtio-blk-device,drive=hd0",
                "-netdev user,id=net0,restrict=on",
                "-device virtio-net-device,netdev=net0"
            ]
        );
        let actions = v["actions"].as_sequence().unwrap();
        assert_eq!(actions.len(), 4);
        let d = &actions[0]["deploy"];
        assert_eq!(d["images"]["u_boot"]["image_arg"], "-bios {u_boot}");
        assert_eq!(
            d["images"]["disk"]["image_arg"],
            "-drive if=none,format=raw,file={disk},id=hd0,snapshot=on"
        );
        assert_eq!(d["images"]["uboot_env"]["url"], "file:///img/uboot_env");
        for a in &actions[1..] {
            assert_eq!(a["boot"]["method"], "qemu");
            assert_eq!(a["boot"]["auto_login"]["username"], "root");
            assert!(a["boot"].get("transfer_overlay").is_none());
        }
    }

    #[test]
    fn bench_step_and_errors() {
        let b = Board::builtin("qemu-arm64").unwrap();
        let mut o = JobOptions {
            cycles: 1,
            bench: Some(BenchStep {
                suite: "openssl".into(),
                runs: 2,
                timeout_s: 900,
            }),
            images: urls(),
        };
        let v: serde_yaml::Value = serde_yaml::from_str(&job_yaml(&b, &o).unwrap()).unwrap();
        let t = &v["actions"][2]["test"]["definitions"][0];
        assert_eq!(t["from"], "inline");
        // The board's [bench] setup lines, then the runner with its [bench] env.
        let steps = t["repository"]["run"]["steps"].as_sequence().unwrap();
        let setup = b.bench().setup;
        assert_eq!(steps.len(), setup.len() + 2);
        assert_eq!(steps[0], "perfguide-bench version");
        for (i, line) in setup.iter().enumerate() {
            assert_eq!(steps[1 + i].as_str(), Some(line.as_str()));
        }
        assert_eq!(
            steps[setup.len() + 1],
            "env PERFGUIDE_FIO_DIR=/mnt/scratch perfguide-bench run --repeat 2 openssl"
        );
        assert!(v["actions"][1]["boot"].get("transfer_overlay").is_some());
        o.bench.as_mut().unwrap().suite = "x; reboot".into();
        let e = job_yaml(&b, &o).unwrap_err().to_string();
        assert!(
            e.contains("\"x; reboot\"") && e.contains("[A-Za-z0-9._-]"),
            "{e}"
        );
        o.bench = None;
        o.images.remove("disk");
        let e = job_yaml(&b, &o).unwrap_err().to_string();
        assert!(e.contains("--image disk=URL"), "{e}");
        let e = job_yaml(&Board::builtin("j721e-evm").unwrap(), &o)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("j721e-evm") && e.contains("no [lava] table"),
            "{e}"
        );
    }

    #[test]
    fn placeholders() {
        assert_eq!(placeholder("file={disk},x"), Some("disk"));
        assert_eq!(placeholder("-bios"), None);
        assert!(valid_suite("stress-ng") && !valid_suite("") && !valid_suite("a b"));
    }
}
