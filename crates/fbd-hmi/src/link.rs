//! What a panel holds to change the running program: a handle on the scan task's request
//! queue, and nothing else. The runtime is not reachable from it (a panel cannot lock it), so
//! every change a panel makes lands between two scans, in the order sent.

use fbd_engine::ScanImage;
use fbd_engine::realtime::RealtimeRunner;
use fbd_engine::runtime::requests::Request;

/// A panel's way to the running program.
#[derive(Clone, Copy)]
pub(crate) struct Link<'a>(&'a RealtimeRunner);

impl<'a> Link<'a> {
    pub(crate) fn new(runner: &'a RealtimeRunner) -> Link<'a> {
        Link(runner)
    }

    /// Sends `r` and waits for its reply (the image shows its effect when this returns).
    pub(crate) fn call<R: Request>(self, r: R) -> R::Reply {
        self.0.call(r)
    }

    /// The newest published scan image (after a request, it shows the request's effect).
    pub(crate) fn image(self) -> std::sync::Arc<ScanImage> {
        self.0.image()
    }

    /// A handle on the scan task for a server of its own (Modbus, the browser HMI), which
    /// sends its requests through the same queue.
    pub(crate) fn handle(self) -> fbd_engine::realtime::TaskHandle {
        self.0.handle()
    }

    /// Sends `r` without waiting.
    pub(crate) fn send<R: Request>(self, r: R) {
        self.0.send(r)
    }
}

/// What a panel is lent for one frame: the newest scan image, the way to the program, and
/// whether the program is the 2048 game (whose front end keeps a watch of `busy` for itself).
#[derive(Clone, Copy)]
pub(crate) struct FrameCtx<'a> {
    pub img: &'a ScanImage,
    pub link: Link<'a>,
    pub game: bool,
}

impl<'a> FrameCtx<'a> {
    /// What is lent with image `img` of the program `runner` runs (`game`: it is the 2048
    /// program). Takes the runner, not the application, so that the shell lends it while it
    /// holds a panel mutably.
    pub(crate) fn new(img: &'a ScanImage, runner: &'a RealtimeRunner, game: bool) -> FrameCtx<'a> {
        FrameCtx { img, link: Link::new(runner), game }
    }
}
