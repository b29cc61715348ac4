//! Two files that import each other through a third: `a` -> `b` -> `c` -> `a`.
mod a;
mod b;
mod c;
