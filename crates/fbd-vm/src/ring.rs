//! A ring of the newest items, fixed in size: once full a push overwrites the oldest and
//! allocates nothing (the scan loop pushes faults and watched values into one).

/// The newest `capacity` items pushed.
#[derive(Clone, Debug)]
pub struct Ring<T> {
    items: Vec<T>,
    capacity: usize,
    /// Where the next push goes once full (then also the oldest item).
    next: usize,
}

impl<T: Clone> Ring<T> {
    /// An empty ring that keeps the last `capacity` items (at least one).
    pub fn new(capacity: usize) -> Ring<T> {
        let capacity = capacity.max(1);
        Ring { items: Vec::with_capacity(capacity), capacity, next: 0 }
    }

    /// Adds `x`, dropping the oldest item when full.
    #[inline]
    pub fn push(&mut self, x: T) {
        if self.items.len() < self.capacity {
            self.items.push(x);
        } else {
            self.items[self.next] = x;
            self.next = (self.next + 1) % self.capacity;
        }
    }

    /// The items, oldest first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> {
        let (newer, older) = self.items.split_at(self.next);
        older.iter().chain(newer)
    }

    /// The newest item (read after every scan: no walk over the ring).
    pub fn last(&self) -> Option<&T> {
        if self.items.len() < self.capacity {
            self.items.last()
        } else {
            self.items.get((self.next + self.capacity - 1) % self.capacity)
        }
    }

    /// The items, oldest first, as a vector.
    pub fn to_vec(&self) -> Vec<T> {
        self.iter().cloned().collect()
    }

    /// Keeps the items `keep` says yes to, oldest first (a watch after a step back).
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        let kept: Vec<T> = self.iter().filter(|&x| keep(x)).cloned().collect();
        self.items.clear();
        self.items.extend(kept);
        self.next = 0;
    }

    /// How many items it holds.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Forgets every item.
    pub fn clear(&mut self) {
        self.items.clear();
        self.next = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_item_is_the_last_pushed() {
        let mut r = Ring::new(3);
        assert_eq!(r.last(), None);
        for x in 1..=7 {
            r.push(x);
            assert_eq!(r.last(), Some(&x));
            assert_eq!(r.iter().last(), Some(&x));
        }
    }

    #[test]
    fn it_keeps_the_newest_oldest_first() {
        let mut r = Ring::new(3);
        for k in 0..2 {
            r.push(k);
        }
        assert_eq!(r.to_vec(), [0, 1]);
        for k in 2..7 {
            r.push(k);
        }
        assert_eq!(r.to_vec(), [4, 5, 6]);
        r.retain(|x| *x != 5);
        assert_eq!(r.to_vec(), [4, 6]);
        r.push(7);
        r.push(8);
        assert_eq!(r.to_vec(), [6, 7, 8]);
        r.clear();
        assert!(r.is_empty());
        assert_eq!(Ring::<u8>::new(0).capacity, 1);
    }
}
