// Material UI: a booking form with a select, an async autocomplete, a menu,
// tabs, a switch, a dialog on submit. Every control the author means to be
// used carries data-act (read only by the tests).
import { useState, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import {
  AppBar, Toolbar, Typography, Button, IconButton, Menu, MenuItem, TextField, Select, FormControl, InputLabel,
  Autocomplete, CircularProgress, Checkbox, FormControlLabel, Switch, Tabs, Tab, Box, Dialog, DialogTitle,
  DialogContent, DialogActions, Card, CardContent, CardActions, Chip, Slider,
} from '@mui/material';

const CITIES = ['Amsterdam', 'Athens', 'Barcelona', 'Berlin', 'Bern', 'Lisbon', 'London', 'Madrid', 'Paris', 'Prague', 'Rome', 'Vienna'];

function useCities(query) {
  const [state, setState] = useState({ loading: false, options: [] });
  useEffect(() => {
    if (!query) { setState({ loading: false, options: [] }); return undefined; }
    setState((s) => ({ ...s, loading: true }));
    // Options come from "the server", a moment after typing.
    const t = setTimeout(() => setState({ loading: false, options: CITIES.filter((c) => c.toLowerCase().startsWith(query.toLowerCase())) }), 300);
    return () => clearTimeout(t);
  }, [query]);
  return state;
}

function App() {
  const [menu, setMenu] = useState(null);
  const [tab, setTab] = useState(0);
  const [room, setRoom] = useState('');
  const [query, setQuery] = useState('');
  const [city, setCity] = useState(null);
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState('Nothing booked yet.');
  const { loading, options } = useCities(query);
  return (
    <>
      <AppBar position="static">
        <Toolbar>
          <Typography variant="h6" component="h1" sx={{ flexGrow: 1 }}>Rooms</Typography>
          <Button color="inherit" data-act="account" aria-haspopup="true" onClick={(e) => setMenu(e.currentTarget)}>Account</Button>
          <Menu anchorEl={menu} open={Boolean(menu)} onClose={() => setMenu(null)}>
            <MenuItem data-act="profile" onClick={() => { setMenu(null); setStatus('Profile opened'); }}>Profile</MenuItem>
            <MenuItem data-act="bookings" onClick={() => { setMenu(null); setStatus('My bookings opened'); }}>My bookings</MenuItem>
            <MenuItem data-act="logout" onClick={() => { setMenu(null); setStatus('Signed out'); }}>Sign out</MenuItem>
          </Menu>
        </Toolbar>
      </AppBar>
      <Tabs value={tab} onChange={(_, v) => setTab(v)} aria-label="Sections">
        <Tab label="Book" data-act="tab-book" />
        <Tab label="Rooms" data-act="tab-rooms" />
      </Tabs>
      {tab === 0 ? (
        <Box component="form" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2, maxWidth: 420 }}
          onSubmit={(e) => { e.preventDefault(); setOpen(true); }}>
          <TextField label="Your name" slotProps={{ htmlInput: { 'data-act': 'name' } }} />
          <FormControl>
            <InputLabel id="room-label">Room</InputLabel>
            <Select labelId="room-label" label="Room" value={room} onChange={(e) => setRoom(e.target.value)}
              SelectDisplayProps={{ 'data-act': 'room' }}>
              <MenuItem value="single">Single</MenuItem>
              <MenuItem value="double">Double</MenuItem>
              <MenuItem value="suite">Suite</MenuItem>
            </Select>
          </FormControl>
          <Autocomplete data-act="city"
            options={options} loading={loading} value={city} filterOptions={(x) => x}
            onChange={(_, v) => setCity(v)} onInputChange={(_, v) => setQuery(v)}
            renderInput={(params) => (
              <TextField {...params} label="City"
                slotProps={{ ...params.slotProps, 
                  input: { ...params.slotProps.input, endAdornment: (<>{loading ? <CircularProgress size={16} /> : null}{params.slotProps.input.endAdornment}</>) } }} />
            )}
          />
          <Box>
            <Typography id="nights-label" gutterBottom>Nights</Typography>
            <Slider aria-labelledby="nights-label" defaultValue={2} min={1} max={14} valueLabelDisplay="auto" slotProps={{ input: { 'data-act': 'nights' } }} />
          </Box>
          <FormControlLabel control={<Checkbox slotProps={{ input: { 'data-act': 'breakfast' } }} />} label="Breakfast" />
          <FormControlLabel control={<Switch slotProps={{ input: { 'data-act': 'newsletter' } }} />} label="Send me offers" />
          <Button type="submit" variant="contained" data-act="submit">Book now</Button>
        </Box>
      ) : (
        <Box sx={{ p: 2, display: 'flex', gap: 2 }}>
          {['Single', 'Double', 'Suite'].map((r) => (
            <Card key={r} sx={{ width: 200 }}>
              <CardContent><Typography variant="h6" component="h2">{r}</Typography><Chip label="Free wifi" size="small" /></CardContent>
              <CardActions><Button size="small" data-act={`pick-${r}`} onClick={() => { setRoom(r.toLowerCase()); setTab(0); }}>Choose</Button></CardActions>
            </Card>
          ))}
        </Box>
      )}
      <Typography sx={{ p: 2 }} role="status">{status}</Typography>
      <Dialog open={open} onClose={() => setOpen(false)}>
        <DialogTitle>Confirm booking</DialogTitle>
        <DialogContent>{`${room || 'No room'} in ${city || 'no city'}`}</DialogContent>
        <DialogActions>
          <Button data-act="cancel" onClick={() => setOpen(false)}>Cancel</Button>
          <Button data-act="confirm" onClick={() => { setOpen(false); setStatus(`Booked: ${room} in ${city}`); }}>Confirm</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

createRoot(document.getElementById('root')).render(<App />);
