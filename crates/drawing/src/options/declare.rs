//! The macro that declares every drawing option once (`options/mod.rs` invokes it): from
//! one entry it makes the field of `DrawOptions`, its setter, its resolved value in
//! `Settings`, and its row of `OPTIONS` (keyword name, command-line flag, help text and
//! the setter by loosely typed value that the Python binding and the command line use).

/// The resolved type of an option: the option's type when it has a default, else `Option`.
macro_rules! resolved_type {
    ($ty:ty, $default:expr) => { $ty };
    ($ty:ty) => { Option<$ty> };
}

/// The resolved value of an option: the value set, else its default.
macro_rules! resolved_value {
    ($value:expr, $default:expr) => {
        $value.clone().unwrap_or_else(|| $default)
    };
    ($value:expr) => {
        $value.clone()
    };
}

/// The value name a flag's help shows, if the entry gives one.
macro_rules! value_name {
    ($name:literal) => {
        Some($name)
    };
    () => {
        None
    };
}

macro_rules! draw_options {
    ($(
        $(#[doc = $doc:literal])+
        $name:ident($arg:ty): $ty:ty $(= $default:expr)?,
            takes $wanted:literal,
            flag $shape:ident $(($value:literal))?, $help:literal;
    )*) => {
        /// Every drawing option of the guide, as the caller asked: `None` is an option not
        /// set, which takes its default, or what a view fills in ([`DrawOptions::settings`]
        /// resolves them). Build with [`DrawOptions::default`] and the setters, or by name
        /// ([`DrawOptions::set_keyword`]).
        #[derive(Debug, Clone, Default, PartialEq)]
        #[non_exhaustive]
        pub struct DrawOptions {
            $( $(#[doc = $doc])+ pub $name: Option<$ty>, )*
            /// Restyles nodes after the built-in rules (the guide's `node_spec_fn`).
            pub node_spec: Option<NodeSpecFn>,
            /// A difference scale (bundle diffs): boxes take the largest value of what they
            /// hold, and the colours start at zero.
            pub(crate) difference_scale: bool,
        }

        impl DrawOptions {
            $(
                #[doc = concat!("Sets `", stringify!($name), "=`.")]
                pub fn $name(mut self, value: $arg) -> Self {
                    self.$name = Some(value.into());
                    self
                }
            )*

            /// Every option with its default filled in where it was not set.
            pub fn settings(&self) -> Settings {
                Settings {
                    $( $name: resolved_value!(self.$name $(, $default)?), )*
                    node_spec: self.node_spec.clone(),
                    difference_scale: self.difference_scale,
                }
            }
        }

        /// The options a drawing is made with: [`DrawOptions`] with the defaults filled in
        /// (an option without a default stays `None`: automatic, or off).
        #[derive(Debug, Clone, PartialEq)]
        #[non_exhaustive]
        pub struct Settings {
            $( $(#[doc = $doc])+ pub $name: resolved_type!($ty $(, $default)?), )*
            /// Restyles nodes after the built-in rules.
            pub node_spec: Option<NodeSpecFn>,
            /// A difference scale (bundle diffs).
            pub(crate) difference_scale: bool,
        }

        /// Every keyword [`DrawOptions::set_keyword`] takes, in the guide's order. Bundle
        /// drawings also take [`crate::BUNDLE_KEYWORDS`]; callables (`node_spec_fn=`, a
        /// function for `color_by=`) are the binding's to wire.
        pub const DRAW_KEYWORDS: &[&str] = &[$(stringify!($name)),*];

        /// Every option, in the guide's order: its keyword, flag, help and setter by value.
        pub const OPTIONS: &[OptionSpec] = &[
            $(
                OptionSpec {
                    name: stringify!($name),
                    wanted: $wanted,
                    flag: FlagShape::$shape,
                    value_name: value_name!($($value)?),
                    help: $help,
                    set: |mut options, value| {
                        let value = <$ty as OptionValue>::from_keyword(value)
                            .map_err(|error| error.for_keyword(stringify!($name), $wanted, value))?;
                        options.$name = Some(value);
                        Ok(options)
                    },
                },
            )*
        ];
    };
}
