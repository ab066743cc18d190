"""The holder's and operator's own portal: their home (what they owe and must do, by when),
the `/api/portal/` summary, and the links to their requests and reports."""
