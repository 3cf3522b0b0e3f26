//! Stand-in for the external-engine driver, so the engine check compiles on this branch.
//! It declares exactly the driver's public surface; the real driver replaces this file
//! at merge. Every call fails the way a missing program would.

use super::EngineConfig;
use crate::moves::Move;
use crate::position::Position;
use crate::subject::{Divide, Subject, SubjectError};

/// An engine running in a child process.
pub struct ExternalEngine {
    id: String,
}

fn not_built(command: &str) -> SubjectError {
    SubjectError::Spawn {
        command: command.to_owned(),
        source: std::io::Error::new(
            std::io::ErrorKind::Unsupported,
            "the external-engine driver is not part of this build",
        ),
    }
}

impl ExternalEngine {
    /// Starts the engine `config` describes.
    pub fn start(config: &EngineConfig) -> Result<ExternalEngine, SubjectError> {
        Err(not_built(&config.command))
    }

    /// The engine's own name.
    pub fn id(&self) -> &str {
        &self.id
    }
}

impl Subject for ExternalEngine {
    fn name(&self) -> String {
        self.id.clone()
    }

    fn divide(
        &mut self,
        _root: &Position,
        _path: &[Move],
        _depth: u32,
    ) -> Result<Divide, SubjectError> {
        Err(not_built(&self.id))
    }
}

/// Splits a command line into words, shell-style.
pub fn split_command(_cmd: &str) -> Result<Vec<String>, String> {
    Err("the external-engine driver is not part of this build".to_owned())
}
