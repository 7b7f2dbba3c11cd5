//! Roles as a small enum decided once at parse time, so rules compare
//! integers instead of strings on the hot path.

macro_rules! roles {
    ($($variant:ident = $cdp:literal),* $(,)?) => {
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum Role {
            $($variant,)*
            Other(String),
        }

        impl Role {
            pub fn parse(s: &str) -> Role {
                match s {
                    $($cdp => Role::$variant,)*
                    other => Role::Other(other.to_string()),
                }
            }

            /// The CDP spelling.
            pub fn cdp_name(&self) -> &str {
                match self {
                    $(Role::$variant => $cdp,)*
                    Role::Other(s) => s.as_str(),
                }
            }
        }
    };
}

roles! {
    RootWebArea = "RootWebArea", WebArea = "WebArea", Document = "document",
    StaticText = "StaticText", InlineTextBox = "InlineTextBox", LineBreak = "LineBreak",
    ListMarker = "ListMarker", LabelText = "LabelText", Legend = "Legend",
    Generic = "generic", None = "none", Presentation = "presentation",
    Group = "group", Section = "section", Region = "region", Paragraph = "paragraph",
    Iframe = "Iframe", IframePresentational = "IframePresentational",
    LayoutTable = "LayoutTable", LayoutTableRow = "LayoutTableRow", LayoutTableCell = "LayoutTableCell",
    Link = "link", Button = "button", TextBox = "textbox", SearchBox = "searchbox",
    CheckBox = "checkbox", Radio = "radio", ComboBox = "combobox", ListBox = "listbox",
    Option = "option", MenuItem = "menuitem", MenuItemCheckBox = "menuitemcheckbox",
    MenuItemRadio = "menuitemradio", Tab = "tab", Switch = "switch", Slider = "slider",
    SpinButton = "spinbutton", TreeItem = "treeitem", MenuListPopup = "MenuListPopup",
    MenuListOption = "MenuListOption", DisclosureTriangle = "DisclosureTriangle",
    Heading = "heading", List = "list", ListItem = "listitem",
    Table = "table", Grid = "grid", TreeGrid = "treegrid", Row = "row", RowGroup = "rowgroup",
    Cell = "cell", GridCell = "gridcell", ColumnHeader = "columnheader", RowHeader = "rowheader",
    Caption = "caption",
    Image = "image", Img = "img", Figure = "figure", Figcaption = "Figcaption",
    Main = "main", Navigation = "navigation", Banner = "banner", ContentInfo = "contentinfo",
    Complementary = "complementary", Form = "form", Search = "search", Dialog = "dialog",
    AlertDialog = "alertdialog", Article = "article",
    TabList = "tablist", TabPanel = "tabpanel", Menu = "menu", MenuBar = "menubar",
    Tree = "tree", Toolbar = "toolbar", Separator = "separator",
    Emphasis = "emphasis", Strong = "strong", Code = "code", Superscript = "superscript",
    Subscript = "subscript", Mark = "mark", Abbr = "Abbr", Time = "time",
    Insertion = "insertion", Deletion = "deletion",
    DescriptionList = "DescriptionList", Term = "term", Definition = "definition",
    SectionHeader = "sectionheader", SectionFooter = "sectionfooter",
    Blockquote = "blockquote", Note = "note", Status = "status", Alert = "alert",
    // Not Chrome's: the hint printed for an element the page makes clickable
    // without giving it a role (rules/clickable.rs), and for one that only
    // takes drops (HTML5 drag and drop).
    Clickable = "clickable", DropTarget = "droptarget",
}

impl Role {
    /// Roles an agent can act on by their nature (focusability adds more).
    pub fn is_control(&self) -> bool {
        matches!(
            self,
            Role::Link | Role::Button | Role::TextBox | Role::SearchBox | Role::CheckBox
                | Role::Radio | Role::ComboBox | Role::ListBox | Role::Option | Role::MenuItem
                | Role::MenuItemCheckBox | Role::MenuItemRadio | Role::Tab | Role::Switch
                | Role::Slider | Role::SpinButton | Role::TreeItem | Role::MenuListOption
                | Role::DisclosureTriangle
        )
    }

    pub fn is_text_field(&self) -> bool {
        matches!(self, Role::TextBox | Role::SearchBox | Role::ComboBox | Role::SpinButton)
    }

    pub fn is_landmark(&self) -> bool {
        matches!(
            self,
            Role::Main | Role::Navigation | Role::Banner | Role::ContentInfo | Role::Complementary
                | Role::Form | Role::Search | Role::Region | Role::Dialog | Role::AlertDialog
        )
    }

    pub fn is_cell(&self) -> bool {
        matches!(self, Role::Cell | Role::GridCell | Role::ColumnHeader | Role::RowHeader)
    }

    pub fn is_root(&self) -> bool {
        matches!(self, Role::RootWebArea | Role::WebArea)
    }

    /// The word printed for this role: the CDP name, shortened where a
    /// shorter word is as clear (HTML element names agents know well).
    pub fn display(&self) -> &str {
        match self {
            Role::Navigation => "nav",
            Role::Banner => "header",
            Role::ContentInfo => "footer",
            Role::Complementary => "aside",
            Role::Image | Role::Img => "img",
            Role::ColumnHeader => "th",
            Role::MenuListOption => "option",
            Role::Iframe | Role::IframePresentational => "iframe",
            Role::Figcaption => "figcaption",
            Role::DescriptionList => "dl",
            Role::Abbr => "abbr",
            Role::Legend => "legend",
            Role::LabelText => "label",
            Role::DisclosureTriangle => "summary",
            Role::MenuListPopup => "menu",
            other => other.cdp_name(),
        }
    }
}
