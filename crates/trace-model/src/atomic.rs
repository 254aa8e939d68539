//! Writing a file whole or not at all: through a temporary file in the same folder and a
//! rename. The temporary file is the program's own by name (`.tl-draw-<pid>-….tmp`), so
//! that an interrupted write can be cleaned up: by [`remove_unfinished_writes`] from a
//! signal handler (SIGINT, SIGTERM), or, after a SIGKILL, by the next write to that folder,
//! which removes the files of processes that are no longer running (and only those).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::thread::ThreadId;

use crate::TraceError;

/// The temporary files being written now, for [`remove_unfinished_writes`].
static UNFINISHED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// Threads whose writes were cancelled ([`cancel_writes_of`]).
static CANCELLED: Mutex<Vec<ThreadId>> = Mutex::new(Vec::new());

/// The start of every temporary file's name.
const PREFIX: &str = ".tl-draw-";
/// The end of every temporary file's name.
const SUFFIX: &str = ".tmp";

/// Writes `bytes` to `path` through a temporary file in the same folder and a rename, so a
/// failure or an interrupted run never leaves a half-written file. Parent folders are
/// created. A file that is replaced keeps its permissions; a new file gets the process's
/// umask, like any file the user creates. The file is not forced to disk (`fsync`) before
/// the rename: that guards only against a power cut in the next moments, costs more than
/// drawing a small model (0.2 to several ms), and Graphviz and TorchLens do not do it
/// either; ext4 and most Linux file systems write a renamed-over file's data before the
/// rename anyway.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), TraceError> {
    write_atomically_with(path, |file| {
        file.write_all(bytes).map_err(|source| TraceError::Write {
            path: path.to_owned(),
            source,
        })
    })
}

/// [`write_atomically`] of what `fill` writes into the file as it makes it, for output too
/// large to hold whole (a 100,000-node SVG is 140 MB). When `fill` fails, its error is
/// returned and nothing is replaced; it names the path in its own write errors.
pub fn write_atomically_with<E: From<TraceError>>(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), E> {
    let write_error = |source| TraceError::Write {
        path: path.to_owned(),
        source,
    };
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(folder).map_err(|error| write_error(folder_error(folder, error)))?;
    remove_stale_writes(folder);
    let replaced = std::fs::metadata(path)
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.permissions());
    let mut temp = temporary_file(folder).map_err(|error| write_error(plain(error)))?;
    let unfinished = Unfinished::register(temp.path().to_owned());
    if let Some(permissions) = replaced {
        temp.as_file()
            .set_permissions(permissions)
            .map_err(write_error)?;
    }
    fill(&mut temp)?;
    // Cancelled meanwhile (Ctrl-C in Python): the temporary file goes, nothing is replaced.
    if is_cancelled() {
        return Err(write_error(std::io::Error::new(
            std::io::ErrorKind::Interrupted,
            "the write was cancelled (interrupted)",
        ))
        .into());
    }
    temp.persist(path)
        .map_err(|error| write_error(plain(error.error)))?;
    drop(unfinished);
    Ok(())
}

/// `error` without the temporary file's name, which tempfile adds to its errors: the user
/// named another path, and the temporary file is gone.
fn plain(error: std::io::Error) -> std::io::Error {
    if error.raw_os_error().is_some() {
        return error;
    }
    // tempfile keeps the system's error only as text: "<error> at path \"<temporary>\"".
    let text = error.to_string();
    match text.split_once(" at path \"") {
        Some((said, _)) => std::io::Error::new(error.kind(), said.to_owned()),
        None => error,
    }
}

/// Why the output's folder could not be created: a file where a folder of the path should
/// be is named as such (the system says only "File exists").
fn folder_error(folder: &Path, error: std::io::Error) -> std::io::Error {
    let blocking = folder
        .ancestors()
        .find(|ancestor| ancestor.exists() && !ancestor.is_dir());
    match blocking {
        Some(file) => std::io::Error::new(
            std::io::ErrorKind::NotADirectory,
            format!("'{}' is a file, not a folder", file.display()),
        ),
        None => error,
    }
}

/// A new temporary file in `folder`, named as the program's own, created with the mode a
/// new file gets (0666 less the umask) rather than tempfile's private 0600.
fn temporary_file(folder: &Path) -> std::io::Result<tempfile::NamedTempFile> {
    let prefix = format!("{PREFIX}{}-", std::process::id());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(SUFFIX);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(folder)
}

/// Keeps a temporary file's path in [`UNFINISHED`] while it is written.
struct Unfinished(PathBuf);

impl Unfinished {
    fn register(path: PathBuf) -> Unfinished {
        if let Ok(mut unfinished) = UNFINISHED.lock() {
            unfinished.push(path.clone());
        }
        Unfinished(path)
    }
}

impl Drop for Unfinished {
    fn drop(&mut self) {
        if let Ok(mut unfinished) = UNFINISHED.lock() {
            unfinished.retain(|p| p != &self.0);
        }
    }
}

/// Cancels the writes of `thread` from now on: a write under way there removes its
/// temporary file instead of replacing its output, and later ones fail the same way. For a
/// caller that stops waiting for a worker thread (Ctrl-C in Python) but cannot stop it.
pub fn cancel_writes_of(thread: ThreadId) {
    if let Ok(mut cancelled) = CANCELLED.lock() {
        cancelled.push(thread);
    }
}

/// Forgets a cancellation of `thread` (its work is over).
pub fn forget_cancelled(thread: ThreadId) {
    if let Ok(mut cancelled) = CANCELLED.lock() {
        cancelled.retain(|t| *t != thread);
    }
}

fn is_cancelled() -> bool {
    let me = std::thread::current().id();
    CANCELLED
        .lock()
        .is_ok_and(|cancelled| cancelled.contains(&me))
}

/// Removes the temporary files of the writes under way: for a signal handler, just before
/// the process exits, so an interrupted write leaves nothing behind. The outputs they would
/// have replaced are untouched.
pub fn remove_unfinished_writes() {
    for path in unfinished_writes() {
        let _ = std::fs::remove_file(path);
    }
}

/// The temporary files being written now. A signal handler must not wait on a write that
/// holds the lock: it takes what is there.
fn unfinished_writes() -> Vec<PathBuf> {
    match UNFINISHED.try_lock() {
        Ok(unfinished) => unfinished.clone(),
        Err(std::sync::TryLockError::Poisoned(poisoned)) => poisoned.into_inner().clone(),
        Err(std::sync::TryLockError::WouldBlock) => Vec::new(),
    }
}

/// Removes from `folder` the temporary files that processes no longer running left behind
/// (killed while writing): only files named as this program's, and only where the process
/// table can be read (`/proc`), so a running writer's file is never touched.
fn remove_stale_writes(folder: &Path) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(writer_of) else {
            continue;
        };
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if is_file && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The process id in a temporary file's name (`.tl-draw-<pid>-<random>.tmp`).
fn writer_of(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(PREFIX)?.strip_suffix(SUFFIX)?;
    let (pid, random) = rest.split_once('-')?;
    (!random.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
        .then(|| pid.parse().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_programs_own_temporary_names_are_read_as_such() {
        assert_eq!(writer_of(".tl-draw-123-abC9.tmp"), Some(123));
        assert_eq!(writer_of(".tl-draw-123-.tmp"), None);
        assert_eq!(writer_of(".tl-draw-x1-ab.tmp"), None);
        assert_eq!(writer_of(".tmpAbC123"), None);
        assert_eq!(writer_of("model.pdf"), None);
    }

    #[test]
    fn failures_name_the_users_path_and_what_is_wrong() {
        let folder = tempfile::tempdir().unwrap();
        let file = folder.path().join("a-file");
        std::fs::write(&file, b"x").unwrap();
        let error = write_atomically(&file.join("model.pdf"), b"x").unwrap_err();
        let (path, kind) = error.file_failure().unwrap();
        assert_eq!(path, file.join("model.pdf"));
        assert_eq!(kind, std::io::ErrorKind::NotADirectory);
        assert!(
            error.to_string().contains("is a file, not a folder"),
            "{error}"
        );
        // /proc takes no new files: the message names the output, never a temporary file.
        let error = write_atomically(Path::new("/proc/model.pdf"), b"x").unwrap_err();
        assert!(!error.to_string().contains(".tmp"), "{error}");
        assert!(error.to_string().contains("/proc/model.pdf"), "{error}");
    }

    #[test]
    fn a_dead_writers_file_is_removed_and_nothing_else() {
        let folder = tempfile::tempdir().unwrap();
        // No process has this id (above Linux's pid_max).
        let stale = folder.path().join(".tl-draw-4294967295-abcdef.tmp");
        let running = folder
            .path()
            .join(format!(".tl-draw-{}-abcdef.tmp", std::process::id()));
        let other = folder.path().join(".tmpXYZ123");
        for file in [&stale, &running, &other] {
            std::fs::write(file, b"x").unwrap();
        }
        write_atomically(&folder.path().join("out.txt"), b"drawn").unwrap();
        assert!(!stale.exists());
        assert!(running.exists() && other.exists());
        assert_eq!(
            std::fs::read(folder.path().join("out.txt")).unwrap(),
            b"drawn"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_mode_and_a_new_one_follows_the_umask() {
        use std::os::unix::fs::PermissionsExt;
        let folder = tempfile::tempdir().unwrap();
        let private = folder.path().join("private.svg");
        std::fs::write(&private, b"old").unwrap();
        std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o600)).unwrap();
        write_atomically(&private, b"new").unwrap();
        let mode = std::fs::metadata(&private).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{mode:o}");
        // A new file gets what `File::create` gives under the same umask.
        let plain = folder.path().join("plain.txt");
        std::fs::File::create(&plain).unwrap();
        let expected = std::fs::metadata(&plain).unwrap().permissions().mode() & 0o777;
        let drawn = folder.path().join("new.svg");
        write_atomically(&drawn, b"new").unwrap();
        let mode = std::fs::metadata(&drawn).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, expected, "{mode:o} vs {expected:o}");
    }

    #[test]
    fn a_cancelled_threads_write_replaces_nothing_and_leaves_nothing() {
        let folder = tempfile::tempdir().unwrap();
        let out = folder.path().join("out.svg");
        std::fs::write(&out, b"previous").unwrap();
        let path = out.clone();
        let worker = std::thread::spawn(move || {
            cancel_writes_of(std::thread::current().id());
            let written = write_atomically(&path, b"late");
            forget_cancelled(std::thread::current().id());
            written
        });
        let error = worker.join().unwrap().unwrap_err();
        assert!(error.to_string().contains("cancelled"), "{error}");
        assert_eq!(std::fs::read(&out).unwrap(), b"previous");
        assert_eq!(std::fs::read_dir(folder.path()).unwrap().count(), 1);
        // Other threads write as before.
        write_atomically(&out, b"now").unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"now");
    }

    #[test]
    fn a_write_that_fails_as_it_is_made_replaces_nothing_and_leaves_nothing() {
        let folder = tempfile::tempdir().unwrap();
        let out = folder.path().join("out.svg");
        std::fs::write(&out, b"previous").unwrap();
        let error = write_atomically_with(&out, |file| {
            file.write_all(b"<svg half").unwrap();
            Err(TraceError::Write {
                path: out.clone(),
                source: std::io::Error::other("the layout failed"),
            })
        })
        .unwrap_err();
        assert!(error.to_string().contains("the layout failed"), "{error}");
        assert_eq!(std::fs::read(&out).unwrap(), b"previous");
        assert_eq!(std::fs::read_dir(folder.path()).unwrap().count(), 1);
        write_atomically_with(&out, |file| {
            file.write_all(b"<svg>").unwrap();
            file.write_all(b"</svg>")
                .map_err(|source| TraceError::Write {
                    path: out.clone(),
                    source,
                })
        })
        .unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"<svg></svg>");
    }

    #[test]
    fn an_interrupted_write_is_removed_by_the_handler() {
        let folder = tempfile::tempdir().unwrap();
        let temp = temporary_file(folder.path()).unwrap();
        let path = temp.path().to_owned();
        let unfinished = Unfinished::register(path.clone());
        // What the handler sees: the write under way. `keep` stands for the process
        // exiting without the file's own clean-up.
        let _ = temp.keep().unwrap();
        // The handler reads the list without waiting (it must not block on a write holding
        // the lock), so while another test's write holds it the handler sees none: with this
        // write registered, an empty list is such a moment, read again.
        let seen = || {
            for _ in 0..100_000 {
                let seen = unfinished_writes();
                if !seen.is_empty() {
                    return seen;
                }
                std::thread::yield_now();
            }
            Vec::new()
        };
        assert!(seen().contains(&path));
        // The handler removes every write under way; other tests' writes run in this
        // process at the same time, so this one removes only its own, as the handler would.
        for write in seen().iter().filter(|write| **write == path) {
            std::fs::remove_file(write).unwrap();
        }
        assert!(!path.exists());
        drop(unfinished);
        assert!(!UNFINISHED.lock().unwrap().contains(&path));
    }
}
