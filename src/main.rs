//! The sightline binary: parses the command line and starts the app or a headless command.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

use clap::Parser;
use sightline::cli::{self, Args};

fn main() {
    let args = Args::parse();
    let code = if args.install_desktop {
        sightline::ui::desktop::run_install()
    } else {
        match args.command {
            Some(command) => cli::run(command),
            None => match sightline::ui::run(args.files) {
                Ok(()) => 0,
                Err(e) => {
                    eprintln!("sightline: {e}");
                    1
                }
            },
        }
    };
    std::process::exit(code);
}
