//! Laying a large body out off the UI thread: a body of thousands of blocks takes a while (a
//! 100,000-block body about 3 s), and the window must keep answering meanwhile.

use std::sync::mpsc::{Receiver, TryRecvError, channel};

use fbd_layout::{Body, Layout};

/// Bodies with at least this many nodes are laid out on a thread; smaller ones take a few
/// milliseconds and are laid out at once (no placeholder frame).
pub(crate) const BACKGROUND_FROM: usize = 2_000;

/// A layout being computed on its own thread.
pub(crate) struct LayoutJob {
    /// The body's cache key (its macro name, "" for the program).
    pub(crate) key: String,
    /// The body being laid out (the drawing needs it with the layout).
    pub(crate) body: Body,
    done: Receiver<Layout>,
}

impl LayoutJob {
    /// Starts laying `body` out (keeping the blocks at `kept`, if given). Gives the body back
    /// if no thread can be started, to be laid out at once instead.
    pub(crate) fn start(
        key: String,
        body: Body,
        kept: Option<Vec<Option<[f64; 2]>>>,
        connectors: bool,
    ) -> Result<LayoutJob, Body> {
        let (tx, done) = channel();
        let input = body.clone();
        let spawned = std::thread::Builder::new().name("fbd-layout".into()).spawn(move || {
            let l = online_layout(&input, kept.as_deref(), connectors);
            // The view may have moved on (another program, another body): then nobody waits.
            let _ = tx.send(l);
        });
        match spawned {
            Ok(_) => Ok(LayoutJob { key, body, done }),
            Err(_) => Err(body),
        }
    }

    /// The layout once it is done (`Ok(None)`: not yet; `Err`: the thread died without one).
    pub(crate) fn poll(&self) -> Result<Option<Layout>, ()> {
        match self.done.try_recv() {
            Ok(l) => Ok(Some(l)),
            Err(TryRecvError::Empty) => Ok(None),
            Err(TryRecvError::Disconnected) => Err(()),
        }
    }
}

/// The online view's layout of `body`: the blocks where the file keeps them (`kept`) or laid out
/// anew, with room beside every output pin for its value badge (a wire of another net running
/// under a badge read as a branch of that output).
pub(crate) fn online_layout(body: &Body, kept: Option<&[Option<[f64; 2]>]>, connectors: bool) -> Layout {
    let opts = fbd_layout::Options::WITH_VALUES;
    let opts = if connectors { opts.with_connectors(fbd_layout::ConnectorRule::DEFAULT) } else { opts };
    match kept {
        Some(pos) => fbd_layout::layout_kept_with(body, pos, &opts),
        None => fbd_layout::layout_with(body, &opts),
    }
}
